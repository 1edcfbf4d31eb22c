package opportunity

import (
	"encoding/json"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)

const validPayload = `{
  "name": "", "justification": "", "cnpj": "11.222.333/0001-81", "contact": "Ana Souza", "network": "Não",
  "email": " ana@cliente.com.br ", "fantasyName": "Cliente Bom", "corporateName": "Cliente Bom Ltda",
  "street": "Rua A, 1", "cep": 1310100, "city": "São Paulo", "state": "SP", "probabilityClosing": 25,
  "acceptedTerm": "true", "country": "Brasil", "phone": 11987654321, "seller": "Vanessa", "sellerSalesforceId": "005X",
  "company": "nordata", "opportunityOrigin": "Partner",
  "projects": [{"aplication": "Inventário", "specification": "Coletor robusto", "homologated": true, "haveCollector": false,
    "partner": true, "partnerOwner": "Software de Parceiros", "partnerName": "ERP Sul", "opportunityType": "public",
    "opportunityTypeStatus": "Licitação", "conclusionDate": "15/01/27"}],
  "products": [
    {"partNumber": "CT-40", "description": "Coletor", "amount": "3", "price": "1.500,50", "accessory": false, "competition": false},
    {"partNumber": "BAT-1", "description": "Bateria", "amount": 2, "price": 100, "accessory": true},
    {"partNumber": "X-9", "description": "Concorrente", "amount": 1, "price": "9000", "competition": true},
    {"partNumber": "", "description": "", "amount": 0, "price": ""}
  ]}`

func payload(t *testing.T, edit func(m map[string]any)) CreatePayload {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(validPayload), &m); err != nil {
		t.Fatal(err)
	}
	if edit != nil {
		edit(m)
	}
	b, _ := json.Marshal(m)
	var p CreatePayload
	if err := json.Unmarshal(b, &p); err != nil {
		t.Fatal(err)
	}
	return p
}

func project(m map[string]any) map[string]any { return m["projects"].([]any)[0].(map[string]any) }
func product(m map[string]any, i int) map[string]any {
	return m["products"].([]any)[i].(map[string]any)
}

func TestValidPayloadBecomesARecord(t *testing.T) {
	rec, errs := payload(t, nil).Check("nordata", now)
	if len(errs) > 0 {
		t.Fatalf("errors: %v", errs)
	}
	if rec.CNPJ != "11222333000181" || rec.Phone != "11987654321" || rec.Email != "ana@cliente.com.br" || rec.CEP != "01310100" || rec.Country != "Brasil" {
		t.Errorf("record %+v", rec)
	}
	// 3 × 1500,50 + 2 × 100 (accessory counts); the competitor's line does not.
	if rec.Estimated != 470150 || len(rec.Products) != 3 {
		t.Errorf("estimated %s over %d lines", rec.Estimated, len(rec.Products))
	}
	if rec.Projects[0].ConclusionDate != "2027-01-15" || rec.Name != "Oportunidade Cliente Bom - 22/11/2026" || rec.ProbabilityClosing != 25 {
		t.Errorf("project %+v name %q", rec.Projects[0], rec.Name)
	}
}

func fieldsOf(errs []FieldError) string {
	var s []string
	for _, e := range errs {
		s = append(s, e.Field+"="+e.Message)
	}
	return strings.Join(s, ",")
}

func TestEachRuleOfTheForm(t *testing.T) {
	cases := map[string]struct {
		edit  func(m map[string]any)
		brand string
		want  string
	}{
		"contact":       {func(m map[string]any) { m["contact"] = " " }, "", "contact=" + MsgRequired},
		"zero phone":    {func(m map[string]any) { m["phone"] = "(00) 0000-0000" }, "", "phone=" + MsgInvalidPhone},
		"short phone":   {func(m map[string]any) { m["phone"] = "119876" }, "", "phone=" + MsgInvalidPhone},
		"email tld":     {func(m map[string]any) { m["email"] = "ana@cliente.comercial" }, "", "email=" + MsgInvalidEmail},
		"cnpj digits":   {func(m map[string]any) { m["cnpj"] = "11.222.333/0001-82" }, "", "cnpj=" + MsgInvalidCNPJ},
		"terms":         {func(m map[string]any) { m["acceptedTerm"] = "false" }, "", "acceptedTerm=" + MsgRequired},
		"seller":        {func(m map[string]any) { m["seller"] = "" }, "", "seller=" + MsgRequired},
		"seller yep":    {func(m map[string]any) { m["seller"] = "" }, "yep", ""},
		"partner owner": {func(m map[string]any) { project(m)["partnerOwner"] = "" }, "", "partnerOwner=" + MsgRequired},
		"partner name":  {func(m map[string]any) { project(m)["partnerName"] = "" }, "", "partnerName=" + MsgRequired},
		"no partner":    {func(m map[string]any) { project(m)["partner"] = false; project(m)["partnerOwner"] = "" }, "", ""},
		"agency status": {func(m map[string]any) { project(m)["opportunityTypeStatus"] = "" }, "", "opportunityTypeStatus=" + MsgRequired},
		"private agency": {func(m map[string]any) {
			project(m)["opportunityType"] = "private"
			project(m)["opportunityTypeStatus"] = ""
		}, "", ""},
		"past conclusion":  {func(m map[string]any) { project(m)["conclusionDate"] = "21/11/26" }, "", "conclusionDate=" + MsgConclusionDate},
		"today conclusion": {func(m map[string]any) { project(m)["conclusionDate"] = "2026-11-22" }, "", "conclusionDate=" + MsgConclusionDate},
		"zero day":         {func(m map[string]any) { project(m)["conclusionDate"] = "00/01/27" }, "", "conclusionDate=" + MsgConclusionDate},
		"homologated":      {func(m map[string]any) { delete(project(m), "homologated") }, "", "homologated=" + MsgRequired},
		"origin":           {func(m map[string]any) { m["opportunityOrigin"] = "Rádio" }, "", "opportunityOrigin=Origem da oportunidade inválida."},
		"main amount":      {func(m map[string]any) { product(m, 0)["amount"] = 0 }, "", "amount=" + MsgRequired},
		"main price":       {func(m map[string]any) { product(m, 0)["price"] = "0,00" }, "", "price=" + MsgRequired},
		"bad price":        {func(m map[string]any) { product(m, 1)["price"] = "1,999" }, "", "products=" + MsgInvalidPrice},
		"probability":      {func(m map[string]any) { m["probabilityClosing"] = 30 }, "", "probabilityClosing=Probabilidade de fechamento inválida."},
	}
	for name, c := range cases {
		b := c.brand
		if b == "" {
			b = "nordata"
		}
		_, errs := payload(t, c.edit).Check(b, now)
		if got := fieldsOf(errs); got != c.want {
			t.Errorf("%s: %q, want %q", name, got, c.want)
		}
	}
	_, errs := payload(t, func(m map[string]any) { m["products"] = []any{} }).Check("nordata", now)
	if len(errs) != 4 {
		t.Errorf("no product line: %v", errs)
	}
	for _, e := range errs {
		if e.Label == "" {
			t.Errorf("%s has no label", e.Field)
		}
	}
}
