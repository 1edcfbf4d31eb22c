package mailer_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"

	"oportuna/internal/postfix"
	"oportuna/internal/testenv"
	"oportuna/mailer"
	"oportuna/mailer/mailtest"
)

type httpEnv struct {
	t    *testing.T
	srv  *httptest.Server
	pf   *postfix.Server
	from string // the envelope sender of this test's e-mails: they are told apart by it
	m    *mailer.Mailer
	h    *mailer.Handler

	mu       sync.Mutex
	enqueued []mailer.Message
	fail     bool
	// failAfterRecord records the e-mail, then fails to start its delivery
	// (what MailDispatcher.Enqueue does when Temporal is unreachable).
	failAfterRecord bool
}

func newHTTPEnv(t *testing.T, perClient int) *httpEnv {
	e := &httpEnv{t: t, pf: testenv.Postfix(t), from: postfix.Address("portal " + t.Name())}
	cfg := postfixConfig(e.pf)
	cfg.From = e.from
	e.m = newMailer(t, cfg)
	e.h = &mailer.Handler{Brands: e.m.Brands, DB: e.m.DB, PerClient: perClient,
		Enqueue: func(ctx context.Context, msg mailer.Message) error {
			e.mu.Lock()
			fail, failAfterRecord := e.fail, e.failAfterRecord
			e.enqueued = append(e.enqueued, msg)
			e.mu.Unlock()
			if fail {
				return errors.New("temporal fora do ar")
			}
			if failAfterRecord {
				if err := e.m.Record(ctx, msg); err != nil {
					return err
				}
				return errors.New("temporal fora do ar")
			}
			return e.m.Send(ctx, msg)
		}}
	r := chi.NewRouter()
	r.Mount("/mailer", e.h.Send())
	r.Mount("/mailbox", e.h.Mailbox())
	e.srv = httptest.NewServer(r)
	t.Cleanup(e.srv.Close)
	return e
}

// mails waits until the server delivered everything it accepted and returns
// this test's e-mails, a copy per recipient (To: that recipient), in order.
func (e *httpEnv) mails() []mailtest.Mail {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(testenv.Context(e.t), 30*time.Second)
	defer cancel()
	if err := e.pf.Drain(ctx); err != nil {
		e.t.Fatal(err)
	}
	got, err := e.pf.Select(func(m postfix.Message) bool { return m.ReturnPath == e.from })
	if err != nil {
		e.t.Fatal(err)
	}
	out := make([]mailtest.Mail, len(got))
	for i, m := range got {
		out[i] = parse(e.t, m)
		out[i].From, out[i].To = m.ReturnPath, []string{m.DeliveredTo}
	}
	return out
}

type answer struct {
	Status int
	Body   map[string]any
	Raw    string
	Header http.Header
}

func (e *httpEnv) do(req *http.Request) answer {
	e.t.Helper()
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	a := answer{Status: res.StatusCode, Raw: string(raw), Header: res.Header}
	_ = json.Unmarshal(raw, &a.Body)
	return a
}

func (e *httpEnv) postForm(fields map[string]string, headers ...string) answer {
	e.t.Helper()
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = w.WriteField(k, v)
	}
	_ = w.Close()
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/mailer", &buf)
	req.Header.Set("Content-Type", w.FormDataContentType())
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	return e.do(req)
}

func (e *httpEnv) get(path string) answer {
	e.t.Helper()
	req, _ := http.NewRequest(http.MethodGet, e.srv.URL+path, nil)
	return e.do(req)
}

func contactForm() map[string]string {
	return map[string]string{
		"subject": "Contato de Ana", "to": "admin@yep.example", "domain": "yep.localhost:8080", "contentType": "text/html",
		"content": `<div style="color:#6a1b9a"><p>Nome: Ana</p><p>Quero revender</p></div>`,
	}
}

func TestSendCallDeliversToTheBrandsOwnAddresses(t *testing.T) {
	e := newHTTPEnv(t, 0)
	a := e.postForm(contactForm())
	if a.Status != http.StatusOK || a.Body["message"] != "Email enviado com sucesso" {
		t.Fatalf("send: %d %s", a.Status, a.Raw)
	}
	mails := e.mails()
	if len(mails) != 1 {
		t.Fatalf("%d e-mails delivered, want 1", len(mails))
	}
	got := mails[0]
	// The caller's HTML arrives as its text, line by line, in the brand's layout.
	if len(got.To) != 1 || got.To[0] != "admin@yep.example" || got.Subject != "Contato de Ana" ||
		!strings.Contains(got.HTML, "Nome: Ana<br>Quero revender") || strings.Contains(got.HTML, "<p>Quero revender</p>") ||
		strings.Contains(got.HTML, `<div style="color:#6a1b9a">`) || !strings.Contains(got.HTML, "Portal de Oportunidades") ||
		!strings.Contains(got.Text, "Nome: Ana\nQuero revender") {
		t.Errorf("delivered: to %v subject %q html %q text %q", got.To, got.Subject, got.HTML, got.Text)
	}
	// URL-encoded form, both addresses of the brand, plain text, domain as the brand's public host.
	form := url.Values{"subject": {"Oi"}, "content": {"texto <puro>"}, "contentType": {"text/plain"},
		"to": {"admin@yep.example, Contato@Yep.example"}, "domain": {"parceiros.yep.example"}}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/mailer", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if a := e.do(req); a.Status != http.StatusOK {
		t.Fatalf("urlencoded: %d %s", a.Status, a.Raw)
	}
	mails = e.mails()[1:] // a copy for each address
	if len(mails) != 2 || mails[0].To[0]+","+mails[1].To[0] != "admin@yep.example,contato@yep.example" &&
		mails[1].To[0]+","+mails[0].To[0] != "admin@yep.example,contato@yep.example" {
		t.Fatalf("plain text e-mail: %d copies, want one to each address", len(mails))
	}
	if got := mails[0]; strings.TrimSpace(got.Text) != "texto <puro>" || got.HTML != "" ||
		got.Header.Get("To") != "<admin@yep.example>, <contato@yep.example>" {
		t.Errorf("plain text e-mail: To %q text %q html %q", got.Header.Get("To"), got.Text, got.HTML)
	}
}

func TestSendCallShowsHTMLAsTextInTheBrandsLayout(t *testing.T) {
	e := newHTTPEnv(t, 100)
	f := contactForm()
	f["content"] = `<a href="https://evil.example/login">Clique aqui</a><script>alert(1)</script>` +
		`<img src=x onerror="alert(2)"><p>5 &lt; 6 &amp; &lt;b&gt;negrito&lt;/b&gt;</p>`
	if a := e.postForm(f); a.Status != http.StatusOK {
		t.Fatalf("send: %d %s", a.Status, a.Raw)
	}
	mails := e.mails()
	if len(mails) != 1 {
		t.Fatalf("%d e-mails delivered, want 1", len(mails))
	}
	got := mails[0]
	for _, bad := range []string{"evil.example", "<script", "alert(", "onerror", "<img src=x", "<b>negrito"} {
		if strings.Contains(got.HTML, bad) {
			t.Errorf("the caller's markup %q reached the e-mail:\n%s", bad, got.HTML)
		}
	}
	for _, want := range []string{"Clique aqui", "5 &lt; 6 &amp; &lt;b&gt;negrito&lt;/b&gt;", "Yep Labels", "<!DOCTYPE html>"} {
		if !strings.Contains(got.HTML, want) {
			t.Errorf("HTML part lacks %q:\n%s", want, got.HTML)
		}
	}
	if !strings.Contains(got.Text, "Clique aqui") || !strings.Contains(got.Text, "5 < 6 & <b>negrito</b>") {
		t.Errorf("text part %q", got.Text)
	}
	f["content"] = `<script>alert(1)</script><img src=x>`
	if a := e.postForm(f); a.Status != http.StatusBadRequest || !strings.Contains(a.Raw, mailer.MsgContentRequired) {
		t.Errorf("markup without text: %d %s", a.Status, a.Raw)
	}
}

func TestARetriedSendCallSendsOnce(t *testing.T) {
	e := newHTTPEnv(t, 100)
	for i := 0; i < 2; i++ {
		if a := e.postForm(contactForm(), "Idempotency-Key", "pedido-1"); a.Status != http.StatusOK {
			t.Fatalf("send %d: %d %s", i, a.Status, a.Raw)
		}
	}
	if a := e.postForm(contactForm(), "X-Request-Id", "pedido-2"); a.Status != http.StatusOK {
		t.Fatalf("send with a request id: %d %s", a.Status, a.Raw)
	}
	other := contactForm()
	other["content"] = "<p>Outra mensagem</p>"
	if a := e.postForm(other, "Idempotency-Key", "pedido-1"); a.Status != http.StatusOK {
		t.Fatalf("another message under a used key: %d %s", a.Status, a.Raw)
	}
	if n := len(e.mails()); n != 3 {
		t.Errorf("delivered %d e-mails, want 3 (the retry sends nothing)", n)
	}
	e.mu.Lock()
	keys := []string{e.enqueued[0].Key, e.enqueued[1].Key, e.enqueued[2].Key, e.enqueued[3].Key}
	e.mu.Unlock()
	if keys[0] != keys[1] || keys[2] == keys[0] || keys[3] == keys[0] || !strings.HasPrefix(keys[0], "mailer/") {
		t.Errorf("outbox keys %v: want the retry on the first key and the others apart", keys)
	}
	if a := e.postForm(contactForm(), "Idempotency-Key", strings.Repeat("k", 201)); a.Status != http.StatusBadRequest {
		t.Errorf("an idempotency key of 201 characters: %d %s", a.Status, a.Raw)
	}
}

func TestASendWhoseDeliveryCannotStartIsMarkedFailedAndRetriedByKey(t *testing.T) {
	e := newHTTPEnv(t, 100)
	e.failAfterRecord = true
	if a := e.postForm(contactForm(), "Idempotency-Key", "pedido-9"); a.Status != http.StatusInternalServerError || a.Body["message"] != "Falha ao enviar o email" {
		t.Fatalf("delivery not started: %d %s", a.Status, a.Raw)
	}
	key := e.enqueued[0].Key
	var status, lastError string
	if err := e.m.DB.QueryRow(context.Background(), `SELECT status, last_error FROM mail_outbox WHERE key = $1`, key).Scan(&status, &lastError); err != nil {
		t.Fatal(err)
	}
	if status != mailer.StatusFailed || !strings.Contains(lastError, "temporal fora do ar") {
		t.Errorf("outbox row: %s %q, want failed with the reason (not pending)", status, lastError)
	}
	e.mu.Lock()
	e.failAfterRecord = false
	e.mu.Unlock()
	if a := e.postForm(contactForm(), "Idempotency-Key", "pedido-9"); a.Status != http.StatusOK {
		t.Fatalf("the retry: %d %s", a.Status, a.Raw)
	}
	if err := e.m.DB.QueryRow(context.Background(), `SELECT status FROM mail_outbox WHERE key = $1`, key).Scan(&status); err != nil || status != mailer.StatusSent {
		t.Errorf("after the retry: %s (%v), want sent", status, err)
	}
	if n := len(e.mails()); n != 1 {
		t.Errorf("delivered %d e-mails, want 1", n)
	}
}

func TestSendCallIsNotARelay(t *testing.T) {
	e := newHTTPEnv(t, 100)
	cases := map[string]struct {
		mod    func(map[string]string)
		reason string
	}{
		"outside address":        {func(f map[string]string) { f["to"] = "vitima@gmail.com" }, mailer.MsgToNotAllowed + "vitima@gmail.com"},
		"outside among allowed":  {func(f map[string]string) { f["to"] = "admin@yep.example,vitima@gmail.com" }, mailer.MsgToNotAllowed + "vitima@gmail.com"},
		"another brand's admin":  {func(f map[string]string) { f["to"] = "admin@nordata.example" }, mailer.MsgToNotAllowed + "admin@nordata.example"},
		"unknown domain":         {func(f map[string]string) { f["domain"] = "evil.example" }, mailer.MsgDomainUnknown},
		"sub-domain of a brand":  {func(f map[string]string) { f["domain"] = "x.yep.localhost" }, mailer.MsgDomainUnknown},
		"no domain":              {func(f map[string]string) { delete(f, "domain") }, mailer.MsgDomainUnknown},
		"no recipient":           {func(f map[string]string) { f["to"] = " , " }, mailer.MsgToRequired},
		"bad recipient":          {func(f map[string]string) { f["to"] = "admin@yep.example <x>" }, mailer.MsgToInvalid + "admin@yep.example <x>"},
		"no subject":             {func(f map[string]string) { f["subject"] = " " }, mailer.MsgSubjectRequired},
		"header injection":       {func(f map[string]string) { f["subject"] = "Oi\nBcc: vitima@gmail.com" }, mailer.MsgSubjectTooLong},
		"long subject":           {func(f map[string]string) { f["subject"] = strings.Repeat("a", 201) }, mailer.MsgSubjectTooLong},
		"no content":             {func(f map[string]string) { f["content"] = "" }, mailer.MsgContentRequired},
		"long content":           {func(f map[string]string) { f["content"] = strings.Repeat("á", 20001) }, mailer.MsgContentTooLong},
		"unsupported media type": {func(f map[string]string) { f["contentType"] = "application/pdf" }, mailer.MsgContentType},
	}
	for name, c := range cases {
		f := contactForm()
		c.mod(f)
		a := e.postForm(f)
		errs, _ := a.Body["errors"].([]any)
		if a.Status != http.StatusBadRequest || a.Body["message"] != "Falha ao enviar o email" || len(errs) == 0 || errs[0] != c.reason {
			t.Errorf("%s: %d %s (want reason %q)", name, a.Status, a.Raw, c.reason)
		}
	}
	req, _ := http.NewRequest(http.MethodPost, e.srv.URL+"/mailer", strings.NewReader(`{"to":"admin@yep.example"}`))
	req.Header.Set("Content-Type", "application/json")
	if a := e.do(req); a.Status != http.StatusBadRequest || a.Body["message"] != "Falha ao enviar o email" {
		t.Errorf("JSON body: %d %s", a.Status, a.Raw)
	}
	if a := e.get("/mailer"); a.Status != http.StatusMethodNotAllowed {
		t.Errorf("GET /mailer: %d", a.Status)
	}
	if len(e.enqueued) != 0 {
		t.Errorf("refused calls enqueued %d e-mails", len(e.enqueued))
	}
	if n := len(e.mails()); n != 0 {
		t.Errorf("refused calls delivered %d e-mails", n)
	}
}

func TestSendCallIsRateLimitedAndReportsDeliveryFailures(t *testing.T) {
	e := newHTTPEnv(t, 2)
	for i := 0; i < 2; i++ {
		if a := e.postForm(contactForm()); a.Status != http.StatusOK {
			t.Fatalf("send %d: %d %s", i, a.Status, a.Raw)
		}
	}
	a := e.postForm(contactForm())
	if a.Status != http.StatusTooManyRequests || a.Body["message"] != "Falha ao enviar o email" || a.Header.Get("Retry-After") == "" {
		t.Errorf("third send in a minute: %d %s", a.Status, a.Raw)
	}
	e2 := newHTTPEnv(t, 0)
	e2.fail = true
	if a := e2.postForm(contactForm()); a.Status != http.StatusInternalServerError || a.Body["message"] != "Falha ao enviar o email" {
		t.Errorf("enqueue failure: %d %s", a.Status, a.Raw)
	}
}

func TestMailboxListsEveryEmailNewestFirstWithItsLinks(t *testing.T) {
	e := newHTTPEnv(t, 0)
	ctx := context.Background()
	yep, _ := e.m.Brands.BySlug("yep")
	tpl := e.m.Templates(yep)
	for i, to := range []string{"ana@x.com.br", "bia@x.com.br", "ana@x.com.br"} {
		c, err := tpl.PasswordReset(mailer.PasswordReset{Name: "<Ana>", Link: fmt.Sprintf("http://yep.localhost:8080/reset-password?token=t%d&x=1", i)})
		if err != nil {
			t.Fatal(err)
		}
		if err := e.m.Send(ctx, c.Message(fmt.Sprintf("reset/%d", i), "yep", to)); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond)
	}
	a := e.get("/mailbox/api/messages?to=ANA@x.com.br")
	var list struct{ Messages []mailer.Stored }
	if err := json.Unmarshal([]byte(a.Raw), &list); err != nil || a.Status != http.StatusOK {
		t.Fatalf("JSON: %d %s", a.Status, a.Raw)
	}
	if len(list.Messages) != 2 || list.Messages[0].Key != "reset/2" || list.Messages[1].Key != "reset/0" {
		t.Fatalf("ana's messages: %+v", list.Messages)
	}
	m := list.Messages[0]
	if m.Status != mailer.StatusSent || m.Subject != "Redefinição de senha | Yep Labels" || len(m.To) != 1 || m.To[0] != "ana@x.com.br" ||
		len(m.Links) != 1 || m.Links[0] != "http://yep.localhost:8080/reset-password?token=t2&x=1" || m.Text == "" {
		t.Errorf("message %+v", m)
	}
	if a := e.get("/mailbox/api/messages?limit=1"); !strings.Contains(a.Raw, "reset/2") || strings.Contains(a.Raw, "reset/1") {
		t.Errorf("limit=1: %s", a.Raw)
	}
	page := e.get("/mailbox/")
	if page.Status != http.StatusOK || !strings.Contains(page.Raw, "Caixa de e-mails") || strings.Count(page.Raw, "Redefinição de senha | Yep Labels") != 3 ||
		strings.Index(page.Raw, "bia@x.com.br") > strings.LastIndex(page.Raw, "ana@x.com.br") {
		t.Errorf("page:\n%s", page.Raw)
	}
	if p := e.get("/mailbox/?to=bia@x.com.br"); strings.Count(p.Raw, "Redefinição de senha | Yep Labels") != 1 {
		t.Errorf("filtered page:\n%s", p.Raw)
	}
	one := e.get(fmt.Sprintf("/mailbox/%d", m.ID))
	if one.Status != http.StatusOK || !strings.Contains(one.Raw, `href="http://yep.localhost:8080/reset-password?token=t2&amp;x=1"`) ||
		!strings.Contains(one.Raw, "Olá, &lt;Ana&gt;,") {
		t.Errorf("message page:\n%s", one.Raw)
	}
	body := e.get(fmt.Sprintf("/mailbox/%d/body", m.ID))
	if !strings.Contains(body.Header.Get("Content-Security-Policy"), "sandbox") || !strings.Contains(body.Raw, "Redefinir senha") {
		t.Errorf("body: %v\n%s", body.Header, body.Raw)
	}
	for _, p := range []string{"/mailbox/999999", "/mailbox/abc", "/mailbox/api/messages/999999"} {
		if a := e.get(p); a.Status != http.StatusNotFound {
			t.Errorf("%s: %d", p, a.Status)
		}
	}
}

// The send call's limit is kept in the database: two replicas (two handlers on
// one database) count the same sends, and the window ends on the clock.
func TestSendCallLimitIsSharedByReplicas(t *testing.T) {
	e := newHTTPEnv(t, 2)
	now := time.Now()
	e.h.Now = func() time.Time { return now }
	two := &mailer.Handler{Brands: e.m.Brands, DB: e.m.DB, PerClient: 2, Enqueue: e.h.Enqueue, Now: e.h.Now}
	r := chi.NewRouter()
	r.Mount("/mailer", two.Send())
	srv2 := httptest.NewServer(r)
	t.Cleanup(srv2.Close)
	one := e.srv
	for i, srv := range []*httptest.Server{one, srv2} {
		e.srv = srv
		if a := e.postForm(contactForm()); a.Status != http.StatusOK {
			t.Fatalf("send %d: %d %s", i+1, a.Status, a.Raw)
		}
	}
	for _, srv := range []*httptest.Server{one, srv2} {
		e.srv = srv
		if a := e.postForm(contactForm()); a.Status != http.StatusTooManyRequests || a.Header.Get("Retry-After") != "60" {
			t.Errorf("third send, replica %s: %d %q %s", srv.URL, a.Status, a.Header.Get("Retry-After"), a.Raw)
		}
	}
	now = now.Add(time.Minute)
	for _, srv := range []*httptest.Server{one, srv2} {
		e.srv = srv
		if a := e.postForm(contactForm()); a.Status != http.StatusOK {
			t.Errorf("after the window, replica %s: %d %s", srv.URL, a.Status, a.Raw)
		}
	}
}
