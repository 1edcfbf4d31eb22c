package main

import (
	"errors"
	"net/http"
	"testing"
	"time"

	"oportuna/cnpj"
)

func TestClientsRetryWithTheSameKeyUntilADefinitiveAnswer(t *testing.T) {
	for _, c := range []struct {
		name string
		a    answer
		want bool
	}{
		{"no answer (the API was killed)", answer{err: errors.New("connection refused")}, true},
		{"429 with Retry-After", answer{status: http.StatusTooManyRequests, body: map[string]any{}}, true},
		{"500", answer{status: http.StatusInternalServerError, body: map[string]any{}}, true},
		{"504: the workflow did not answer in time", answer{status: http.StatusGatewayTimeout, body: map[string]any{}}, true},
		{"502 CRM refusal: decided again with a new key", answer{status: http.StatusBadGateway, body: map[string]any{"code": codeCRM}}, false},
		{"200", answer{status: http.StatusOK, body: map[string]any{"message": msgApproved}}, false},
		{"409", answer{status: http.StatusConflict, body: map[string]any{}}, false},
	} {
		if got := retryable(c.a); got != c.want {
			t.Errorf("%s: retryable = %v, want %v", c.name, got, c.want)
		}
	}
}

func TestEveryOpportunityHasItsOwnValidCustomer(t *testing.T) {
	seen := map[string]bool{}
	for round := 1; round <= 2; round++ {
		for n := 0; n < 1000; n++ {
			doc := validCNPJ(98765, round*10000+n)
			if !cnpj.Valid(doc) || doc[8:12] == "9999" {
				t.Fatalf("round %d, opportunity %d: %s is not a valid customer CNPJ", round, n, doc)
			}
			if seen[doc] {
				t.Fatalf("round %d, opportunity %d: %s used twice", round, n, doc)
			}
			seen[doc] = true
		}
	}
}

func TestOutboxKeysNameTheirOpportunity(t *testing.T) {
	if got := opportunityOfKey("notice/6eef104c-d03f-5080-bc3c-f9ec3201ba07/0/2/approved/3f1c"); got != "6eef104c-d03f-5080-bc3c-f9ec3201ba07" {
		t.Errorf("opportunityOfKey = %q", got)
	}
	if got := opportunityOfKey("mail/reset/x"); got != "" {
		t.Errorf("opportunityOfKey of a non-notice key = %q, want empty", got)
	}
}

// TestTheChecksWaitForTheLastRenewalWindow: the settle waits until the
// renewal window of the story that ended last has opened (its timer changes
// the status), not the first's; with no story ended there is nothing to wait for.
func TestTheChecksWaitForTheLastRenewalWindow(t *testing.T) {
	t0 := time.Date(2026, 11, 27, 10, 51, 41, 0, time.UTC)
	ops := []*op{{end: t0}, {end: t0.Add(7 * time.Second)}, {end: t0.Add(2 * time.Second)}, {}}
	if got, want := timersDue(ops), t0.Add(7*time.Second+renewalOpens+3*time.Second); !got.Equal(want) {
		t.Errorf("timersDue = %s, want %s", got, want)
	}
	if got := timersDue([]*op{{}}); !got.IsZero() {
		t.Errorf("no story ended: %s, want zero", got)
	}
}
