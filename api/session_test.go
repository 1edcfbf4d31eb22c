package api

import (
	"testing"

	"oportuna/auth"
)

func TestADeactivatedSellersOpenSessionEndsOnEveryCall(t *testing.T) {
	ps := newPartnerStack(t)
	resale := ps.login("revenda@nordata.demo", "nordata")
	seller := ps.login("vendedor2@nordata.demo", "nordata")
	sellerID := ps.userID("vendedor2@nordata.demo")

	code, body := seller.call("POST", "/api/opportunity/create", createBody("11222333000181"))
	if code != 200 {
		t.Fatalf("create while active: %d %v", code, body)
	}
	oppID := body["data"].(map[string]any)["id"].(string)
	if code, body := seller.call("GET", "/api/opportunity/user", nil); code != 200 || body["total"] != 1.0 {
		t.Fatalf("the seller's list while active: %d %v", code, body)
	}
	if code, body := seller.call("GET", "/api/opportunity/id/"+oppID, nil); code != 200 {
		t.Fatalf("the seller's opportunity while active: %d %v", code, body)
	}

	if code, body := resale.call("PATCH", "/api/seller/inative/"+sellerID, nil); code != 200 {
		t.Fatalf("deactivate: %d %v", code, body)
	}
	// The access token is still signed and unexpired; the account is not active.
	for _, c := range []struct {
		method, path string
		body         any
	}{
		{"GET", "/api/opportunity/user", nil},
		{"GET", "/api/opportunity/id/" + oppID, nil},
		{"POST", "/api/opportunity/create", createBody("11444777000161")},
		{"GET", "/api/notifications", nil},
		{"GET", "/api/opportunity/name", nil},
		{"GET", "/api/history/getByTypeId?typeId=" + oppID, nil},
		{"PATCH", "/api/opportunity/renovation/" + oppID + "/request", map[string]any{"reason": "ainda em negociação"}},
		{"GET", "/authenticator/auth/payload", nil},
		{"GET", "/authenticator/user/" + sellerID, nil},
	} {
		code, body := seller.call(c.method, c.path, c.body)
		if code != 401 || body["message"] != auth.MsgSessionRequired {
			t.Errorf("%s %s by a deactivated seller: %d %v, want 401 %q", c.method, c.path, code, body, auth.MsgSessionRequired)
		}
	}
	if n := count(t, ps, `SELECT count(*) FROM opportunities WHERE cnpj = '11444777000161'`); n != 0 {
		t.Errorf("a deactivated seller created %d opportunities", n)
	}
	// Everyone else's session goes on.
	if code, body := resale.call("GET", "/api/opportunity/resale", nil); code != 200 {
		t.Errorf("the reseller's list: %d %v", code, body)
	}
}
