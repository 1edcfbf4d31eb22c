package api

import (
	"context"
	"testing"
	"time"
)

// TestSellerDeletionCanBeUndoneWithinTheWindow: 'Excluir usuário' is a
// deactivation, done at once (a closed tab never leaves a seller the reseller
// believes deleted still able to sign in); 'Desfazer' (PATCH
// /seller/restore/{id}) gives the access back within SellerUndoWindow, to the
// seller's own reseller only, and is recorded in the seller's history. After
// the window, or for a user that is not deleted, it answers 409.
func TestSellerDeletionCanBeUndoneWithinTheWindow(t *testing.T) {
	ps := newPartnerStack(t, func(s *Server) { s.Now = s.Partners.Now })
	resale := ps.login("revenda@nordata.demo", "nordata")
	rep := ps.login("representante@nordata.demo", "nordata")
	seller := ps.login("vendedor1@nordata.demo", "nordata")
	yepResale := ps.login("revenda@yep.demo", "yep")
	other := ps.login(ps.otherCompany("nordata"), "nordata")
	victor := ps.userID("vendedor2@nordata.demo")

	if code, body := resale.call("PATCH", "/api/seller/inative/"+victor, nil); code != 200 || body["message"] != MsgUserDeleted {
		t.Fatalf("delete: %d %v", code, body)
	}
	if code := ps.loginWith("vendedor2@nordata.demo", "Oportuna@2026", "nordata"); code != 401 {
		t.Fatalf("a deleted seller signs in: %d", code)
	}
	for _, c := range []struct {
		who  string
		s    *session
		code int
	}{{"another brand's reseller", yepResale, 404}, {"another company", other, 403}, {"the representative", rep, 403}, {"a seller", seller, 403}} {
		if code, body := c.s.call("PATCH", "/api/seller/restore/"+victor, nil); code != c.code {
			t.Errorf("undo as %s: %d %v, want %d", c.who, code, body, c.code)
		}
	}
	if code := ps.loginWith("vendedor2@nordata.demo", "Oportuna@2026", "nordata"); code != 401 {
		t.Fatalf("refused undos gave the access back: %d", code)
	}

	ps.clock.Add(SellerUndoWindow - time.Second)
	if code, body := resale.call("PATCH", "/api/seller/restore/"+victor, nil); code != 200 || body["message"] != MsgUserRestored {
		t.Fatalf("undo: %d %v", code, body)
	}
	if code := ps.loginWith("vendedor2@nordata.demo", "Oportuna@2026", "nordata"); code != 200 {
		t.Errorf("a restored seller signs in: %d", code)
	}
	if _, body := resale.call("GET", "/api/seller/all", nil); body["total"] != 2.0 {
		t.Errorf("sellers after the undo: %v", body)
	}
	if n := count(t, ps, `SELECT count(*) FROM history WHERE type = 'user' AND type_id = $1 AND modifications @> '[{"attribute":"active","newValue":"true"}]'`, victor); n != 1 {
		t.Errorf("history rows of the undo: %d", n)
	}
	if code, body := resale.call("PATCH", "/api/seller/restore/"+victor, nil); code != 409 || body["message"] != MsgUserNotDeleted {
		t.Errorf("undo of an active seller: %d %v", code, body)
	}

	// Past the window the deletion stays.
	if code, _ := resale.call("PATCH", "/api/seller/inative/"+victor, nil); code != 200 {
		t.Fatal("delete again")
	}
	ps.clock.Add(SellerUndoWindow + time.Second)
	if code, body := resale.call("PATCH", "/api/seller/restore/"+victor, nil); code != 409 || body["message"] != MsgUndoExpired {
		t.Errorf("undo after the window: %d %v", code, body)
	}
	if code := ps.loginWith("vendedor2@nordata.demo", "Oportuna@2026", "nordata"); code != 401 {
		t.Errorf("a seller whose undo came too late signs in: %d", code)
	}
	// A seller deleted before the instant was recorded cannot be restored either.
	vanessa := ps.userID("vendedor1@nordata.demo")
	if _, err := ps.db.Exec(context.Background(), `UPDATE users SET active = false, deactivated_at = NULL WHERE id = $1`, vanessa); err != nil {
		t.Fatal(err)
	}
	if code, body := resale.call("PATCH", "/api/seller/restore/"+vanessa, nil); code != 409 || body["message"] != MsgUndoExpired {
		t.Errorf("undo without a recorded deletion: %d %v", code, body)
	}
}
