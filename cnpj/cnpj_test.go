package cnpj

import "testing"

func TestValid(t *testing.T) {
	for _, s := range []string{"11.222.333/0001-81", "11222333000181", "04.252.011/0001-10", "12.ABC.345/01DE-35", "12abc34501de35"} {
		if !Valid(s) {
			t.Errorf("Valid(%q) = false, want true", s)
		}
	}
	for _, s := range []string{"11.222.333/0001-82", "00.000.000/0000-00", "11111111111111", "1122233300018", "", "12.ABC.345/01DE-3A", "abcdefghijklmn"} {
		if Valid(s) {
			t.Errorf("Valid(%q) = true, want false", s)
		}
	}
}

func TestCheckDigitsAndFormat(t *testing.T) {
	if d, ok := CheckDigits("112223330001"); !ok || d != "81" {
		t.Errorf("CheckDigits = %q %v, want 81", d, ok)
	}
	if d, ok := CheckDigits("12ABC34501DE"); !ok || d != "35" {
		t.Errorf("alphanumeric CheckDigits = %q %v, want 35", d, ok)
	}
	if _, ok := CheckDigits("1122233300"); ok {
		t.Error("short base accepted")
	}
	if got := Format("11222333000181"); got != "11.222.333/0001-81" {
		t.Errorf("Format = %q", got)
	}
	if got := Format("123"); got != "123" {
		t.Errorf("Format(short) = %q", got)
	}
}
