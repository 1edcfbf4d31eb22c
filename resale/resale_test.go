package resale_test

import (
	"testing"

	"oportuna/resale"
)

func TestCheckNormalisesASignUp(t *testing.T) {
	r, errs := resale.Check(resale.Registration{Email: " Contato@Nova.COM.br ", Phone: "(11) 9 8765-4321",
		ContactName: "  Carla   Dias ", CNPJ: "11.444.777/0001-61", CorporateName: "Nova  Ltda", CEP: "01310-100",
		State: "sp", City: "São Paulo"})
	if len(errs) != 0 {
		t.Fatalf("errors %+v", errs)
	}
	want := resale.Registration{Email: "contato@nova.com.br", Phone: "11987654321", ContactName: "Carla Dias",
		CNPJ: "11444777000161", CorporateName: "Nova Ltda", FantasyName: "N/C", CEP: "01310100", State: "SP",
		City: "São Paulo", Country: "Brasil"}
	if r != want {
		t.Errorf("got %+v\nwant %+v", r, want)
	}
}

func TestCheckNamesEachInvalidField(t *testing.T) {
	_, errs := resale.Check(resale.Registration{Email: "x@", Phone: "1199", CNPJ: "11444777000100", CEP: "123", State: "São"})
	var fields []string
	for _, e := range errs {
		fields = append(fields, e.Field+":"+e.Message)
	}
	want := []string{"contactName:" + resale.MsgCheckName, "email:" + resale.MsgCheckEmail, "phone:" + resale.MsgCheckPhone,
		"cnpj:" + resale.MsgCheckCNPJ, "corporateName:" + resale.MsgCheckCorporate, "cep:" + resale.MsgCheckCEP,
		"state:" + resale.MsgCheckState}
	if len(fields) != len(want) {
		t.Fatalf("fields %v, want %v", fields, want)
	}
	for i := range want {
		if fields[i] != want[i] {
			t.Errorf("field %d = %s, want %s", i, fields[i], want[i])
		}
	}
}

func TestStatusLabel(t *testing.T) {
	for s, want := range map[string]string{resale.Analysis: "em análise", resale.Approved: "aprovada",
		resale.Disapproved: "reprovada", "x": "fora de análise"} {
		if got := resale.StatusLabel(s); got != want || resale.ValidStatus(s) != (s != "x") {
			t.Errorf("%s: %q %v", s, got, resale.ValidStatus(s))
		}
	}
}
