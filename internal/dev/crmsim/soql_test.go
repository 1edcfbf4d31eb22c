package crmsim

import (
	"encoding/json"
	"strings"
	"testing"

	"oportuna/crm"
)

func testRecords() []*record {
	p1 := newRecord(objProduct, "01tA").set("ProductCode", "CT-40").set("Name", "Coletor")
	p2 := newRecord(objProduct, "01tB").set("ProductCode", "ZL-420").set("Name", "Impressora")
	return []*record{
		newRecord(objPricebookEntry, "01uA").set("ProductCode", "CT-40").set("UnitPrice", 4890.0).set("IsActive", true).set("Pricebook2Id", "01sX").set("Product2", p1),
		newRecord(objPricebookEntry, "01uB").set("ProductCode", "ZL-420").set("UnitPrice", 3150.5).set("IsActive", false).set("Pricebook2Id", "01sX").set("Product2", p2),
		newRecord(objPricebookEntry, "01uC").set("ProductCode", "O'Brien\\1").set("UnitPrice", 10.0).set("IsActive", true).set("Pricebook2Id", "01sX").set("Product2", nil),
	}
}

func runSOQL(t *testing.T, q string) ([]*record, []string, error) {
	t.Helper()
	parsed, err := parseSOQL(q)
	if err != nil {
		return nil, nil, err
	}
	if err := parsed.check(buildSchemas(crm.DefaultFields())); err != nil {
		return nil, nil, err
	}
	recs, err := parsed.run(testRecords())
	return recs, parsed.fields, err
}

func ids(recs []*record) string {
	var out []string
	for _, r := range recs {
		out = append(out, r.id)
	}
	return strings.Join(out, ",")
}

func TestSOQLFiltersSortsAndLimits(t *testing.T) {
	for _, c := range []struct{ q, want string }{
		{"SELECT Id FROM PricebookEntry", "01uA,01uB,01uC"},
		{"select id from pricebookentry where isactive = TRUE", "01uA,01uC"},
		{"SELECT Id FROM PricebookEntry WHERE ProductCode IN ('ct-40', 'ZL-420') AND IsActive = true", "01uA"},
		{"SELECT Id FROM PricebookEntry WHERE ProductCode NOT IN ('CT-40')", "01uB,01uC"},
		{"SELECT Id FROM PricebookEntry WHERE ProductCode = 'O\\'Brien\\\\1'", "01uC"},
		{"SELECT Id FROM PricebookEntry WHERE UnitPrice >= 3150.5 ORDER BY UnitPrice DESC", "01uA,01uB"},
		{"SELECT Id FROM PricebookEntry WHERE UnitPrice < 4000 ORDER BY ProductCode", "01uC,01uB"},
		{"SELECT Id FROM PricebookEntry WHERE ProductCode LIKE 'c%' OR IsActive = false", "MALFORMED_QUERY"},
		{"SELECT Id FROM PricebookEntry WHERE Product2.Name LIKE '%impress%'", "01uB"},
		{"SELECT Id FROM PricebookEntry WHERE Product2.Name = null", "01uC"},
		{"SELECT Id FROM PricebookEntry WHERE Product2Id != null", ""},
		{"SELECT Id FROM PricebookEntry ORDER BY ProductCode DESC LIMIT 2 OFFSET 1", "01uC,01uA"},
	} {
		recs, _, err := runSOQL(t, c.q)
		if c.want == "MALFORMED_QUERY" {
			if err == nil || err.(*sfError).code != "MALFORMED_QUERY" {
				t.Errorf("%s: err %v, want MALFORMED_QUERY", c.q, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", c.q, err)
			continue
		}
		if got := ids(recs); got != c.want {
			t.Errorf("%s = %s, want %s", c.q, got, c.want)
		}
	}
}

func TestSOQLRefusesWhatSalesforceRefuses(t *testing.T) {
	for q, code := range map[string]string{
		"SELECT Id FROM Nope":                                      "INVALID_TYPE",
		"SELECT Idd FROM PricebookEntry":                           "INVALID_FIELD",
		"SELECT Id FROM PricebookEntry WHERE Foo__c = 'x'":         "INVALID_FIELD",
		"SELECT Id, Nope.Name FROM PricebookEntry":                 "INVALID_FIELD",
		"SELECT Id FROM PricebookEntry WHERE IsActive = 'yes'":     "INVALID_QUERY_FILTER_OPERATOR",
		"SELECT Id FROM PricebookEntry WHERE UnitPrice > 'x'":      "INVALID_QUERY_FILTER_OPERATOR",
		"SELECT FROM PricebookEntry":                               "MALFORMED_QUERY",
		"SELECT Id PricebookEntry":                                 "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode = 'open":  "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode IN 'x'":   "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry LIMIT x":                    "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode = 'a' ;":  "MALFORMED_QUERY",
		"DELETE FROM PricebookEntry":                               "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode = '\\q'":  "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode == 'CT'":  "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry ORDER ProductCode":          "MALFORMED_QUERY",
		"SELECT Id FROM PricebookEntry WHERE ProductCode NOT 'CT'": "MALFORMED_QUERY",
	} {
		_, _, err := runSOQL(t, q)
		e, ok := err.(*sfError)
		if !ok || e.code != code || e.status != 400 {
			t.Errorf("%s: %v, want %s", q, err, code)
		}
	}
}

func TestRecordsRenderInSelectOrderWithNestedRelationships(t *testing.T) {
	recs, fields, err := runSOQL(t, "SELECT productcode, Id, Product2.productcode, product2.Name FROM PricebookEntry WHERE Id = '01uA'")
	if err != nil || len(recs) != 1 {
		t.Fatal(recs, err)
	}
	b, _ := json.Marshal(render("v61.0", recs[0], fields))
	want := `{"attributes":{"type":"PricebookEntry","url":"/services/data/v61.0/sobjects/PricebookEntry/01uA"},"ProductCode":"CT-40","Id":"01uA",` +
		`"Product2":{"attributes":{"type":"Product2","url":"/services/data/v61.0/sobjects/Product2/01tA"},"ProductCode":"CT-40","Name":"Coletor"}}`
	if string(b) != want {
		t.Errorf("render\n got %s\nwant %s", b, want)
	}
}

func TestRecordIDsLookLikeSalesforceIDs(t *testing.T) {
	id := recordID(prefixOpportunity, 12345)
	if len(id) != 18 || !strings.HasPrefix(id, "006Sm") {
		t.Fatalf("id %q", id)
	}
	// The suffix encodes the case of the first 15 characters (Salesforce's algorithm):
	// "006Sm00000003D7": S is the 4th character of the first chunk, D of the third.
	if id[:15] != "006Sm00000003D7" || id[15:] != "IAI" {
		t.Errorf("id %q", id)
	}
	first, again, other := stableID(prefixUser, "a"), stableID(prefixUser, "a"), stableID(prefixUser, "b")
	if first != again || first == other {
		t.Error("stable ids are not stable or collide")
	}
}
