package opportunity

import (
	"encoding/json"
	"testing"
)

func TestParseMoney(t *testing.T) {
	ok := map[string]Money{
		"1.234,56": 123456, "1234,56": 123456, "1234.56": 123456, "1234,5": 123450, "10": 1000,
		"0,99": 99, ",5": 50, "R$ 2.000,00": 200000, "-3,10": -310, "1.000.000,01": 100000001,
	}
	for in, want := range ok {
		if got, err := ParseMoney(in); err != nil || got != want {
			t.Errorf("ParseMoney(%q) = %d, %v; want %d", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "abc", "1,234", "1.2.3", "1,2,3", "12.345", "1e5", "1,999", " , "} {
		if _, err := ParseMoney(bad); err == nil {
			t.Errorf("ParseMoney(%q) accepted", bad)
		}
	}
}

func TestMoneyJSONAndBRL(t *testing.T) {
	var v struct{ A, B, C Money }
	if err := json.Unmarshal([]byte(`{"A": 10.5, "B": "1.234,56", "C": null}`), &v); err != nil || v.A != 1050 || v.B != 123456 || v.C != 0 {
		t.Fatalf("%+v %v", v, err)
	}
	out, _ := json.Marshal(v)
	if string(out) != `{"A":10.50,"B":1234.56,"C":0.00}` {
		t.Errorf("marshal = %s", out)
	}
	if err := json.Unmarshal([]byte(`{"A": 0.001}`), &v); err == nil {
		t.Error("three decimals accepted")
	}
	if got := Money(123456789).BRL(); got != "R$ 1.234.567,89" {
		t.Errorf("BRL = %q", got)
	}
	if got := Money(5).BRL(); got != "R$ 0,05" {
		t.Errorf("BRL = %q", got)
	}
}
