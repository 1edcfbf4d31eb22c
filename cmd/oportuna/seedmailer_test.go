package main

import (
	"strings"
	"testing"

	"oportuna/internal/testenv"
	"oportuna/mailer"
)

// The seed's mailer logs which e-mail it did not send, never to whom or about what.
func TestTheSeedMailerLogsNoPersonalData(t *testing.T) {
	buf := testenv.CaptureLogs(t)

	m := mailer.Message{Key: "notice/abc/1", Brand: "nordata", To: []string{"maria.souza@cliente.com.br"},
		Subject: "Oportunidade Armazém Souza aprovada"}
	if err := (seedMailer{}).Send(t.Context(), m); err != nil {
		t.Fatal(err)
	}
	out := buf.String()
	if !strings.Contains(out, "notice/abc/1") || !strings.Contains(out, "nordata") {
		t.Errorf("the log does not name the e-mail's key and brand: %s", out)
	}
	for _, personal := range []string{"maria.souza", "cliente.com.br", "Souza"} {
		if strings.Contains(out, personal) {
			t.Errorf("the log holds %q: %s", personal, out)
		}
	}
}
