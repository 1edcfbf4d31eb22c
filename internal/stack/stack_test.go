package stack

import (
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

func TestLoginSendsBasicAuthAndTheBrandAndAnswersTheAccessToken(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		user, pass, ok := r.BasicAuth()
		switch {
		case r.URL.Path != "/authenticator/login" || r.URL.Query().Get("brand") != "nordata" || r.Host != "nordata.localhost":
			w.WriteHeader(http.StatusNotFound)
		case !ok || user != "vendedor1@nordata.demo" || pass != "Oportuna@2026":
			w.WriteHeader(http.StatusUnauthorized)
		default:
			_, _ = w.Write([]byte(`{"data":{"data":{"access_token":"tok","refresh_token":"r"}}}`))
		}
	}))
	defer srv.Close()
	tok, status, err := Login(t.Context(), srv.Client(), srv.URL, "nordata.localhost", "nordata", "vendedor1@nordata.demo", "Oportuna@2026")
	if err != nil || status != 200 || tok != "tok" {
		t.Fatalf("Login = %q, %d, %v", tok, status, err)
	}
	if _, status, err := Login(t.Context(), srv.Client(), srv.URL, "nordata.localhost", "nordata", "vendedor1@nordata.demo", "errada"); err == nil || status != 401 {
		t.Errorf("a wrong password: status %d, err %v", status, err)
	}
}

func TestProcWaitsUntilReadyAndStops(t *testing.T) {
	ready := false
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !ready {
			ready = true // the first probe finds it starting
			w.WriteHeader(http.StatusServiceUnavailable)
		}
	}))
	defer srv.Close()
	p := NewCommand("sleeper", []string{"sleep", "60"}, t.TempDir(), nil)
	p.ReadyURL = srv.URL
	if err := p.Start(t.Context()); err != nil {
		t.Fatal(err)
	}
	began := time.Now()
	p.Stop(20 * time.Second)
	if time.Since(began) > 10*time.Second {
		t.Errorf("Stop took %v: SIGTERM did not end the process", time.Since(began))
	}
	if len(p.LogFiles()) != 1 {
		t.Errorf("log files %v, want one for the one incarnation", p.LogFiles())
	}
	gone := NewCommand("gone", []string{"true"}, t.TempDir(), nil)
	gone.ReadyURL = "http://127.0.0.1:1/"
	if err := gone.Start(t.Context()); err == nil {
		t.Error("a command that exits at once was reported ready")
	}
}

// TestSearchAttributesAreNamedAsSetupShExpects: setup.sh (and the temporal
// CLI it runs) takes the type names Keyword, Datetime, Bool, ….
func TestSearchAttributesAreNamedAsSetupShExpects(t *testing.T) {
	got := SearchAttributes()
	want := map[string]string{"Brand": "Keyword", "OpportunityStatus": "Keyword", "ResaleStatus": "Keyword",
		"ResaleCnpj": "Keyword", "ValidUntil": "Datetime", "ApprovalOverdue": "Bool",
		"Representatives": "KeywordList"}
	if len(got) != len(want) {
		t.Errorf("SearchAttributes() = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("%s: %q, want %q", k, got[k], v)
		}
	}
}
