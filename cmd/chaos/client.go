package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	mrand "math/rand/v2"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"oportuna/cnpj"
	"oportuna/internal/stack"
	"oportuna/opportunity"
)

// Answers of the API the clients expect (api.MsgCreated, api.MsgApproved).
const (
	msgCreated  = "Oportunidade cadastrada com sucesso"
	msgApproved = "Oportunidade aprovada com sucesso"
	codeCRM     = "CRM_COMMUNICATION_ERROR"
	// approvalProbability is the probability of closing every approval sets.
	approvalProbability = 50
	brandSlug           = "nordata"
	password            = "Oportuna@2026"
)

// portal is the API as the web app calls it.
type portal struct {
	base  func() string
	hc    *http.Client
	stats *clientStats
}

// clientStats counts what the clients saw.
type clientStats struct {
	requests, netErrors, status5xx, status429, status504, status502CRM, crmRefusals atomic.Int64
}

type answer struct {
	status int
	body   map[string]any
	err    error
}

func (a answer) message() string { s, _ := a.body["message"].(string); return s }
func (a answer) code() string    { s, _ := a.body["code"].(string); return s }

func (a answer) String() string {
	if a.err != nil {
		return "error: " + a.err.Error()
	}
	s := fmt.Sprintf("%d %q", a.status, a.message())
	if c := a.code(); c != "" {
		s += " code " + c
	}
	if st := apiStatus(a); st != "" {
		s += " status " + st
	} else if rec, ok := a.body["data"].(map[string]any); ok {
		s += fmt.Sprintf(" status %v", rec["status"])
	}
	return s
}

// call sends one request; key, when set, goes in the Idempotency-Key header.
func (p *portal) call(ctx context.Context, method, path, token, key string, body any) answer {
	p.stats.requests.Add(1)
	req, err := stack.APIRequest(ctx, method, p.base()+path, token, brandSlug, key, body)
	if err != nil {
		return answer{err: err}
	}
	res, err := p.hc.Do(req)
	if err != nil {
		p.stats.netErrors.Add(1)
		return answer{err: err}
	}
	defer res.Body.Close()
	out := map[string]any{}
	raw, _ := io.ReadAll(res.Body)
	_ = json.Unmarshal(raw, &out)
	switch {
	case res.StatusCode == http.StatusTooManyRequests:
		p.stats.status429.Add(1)
		if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
			out["__retryAfter"] = float64(s)
		}
	case res.StatusCode == http.StatusGatewayTimeout:
		p.stats.status504.Add(1)
	case res.StatusCode == http.StatusBadGateway && out["code"] == codeCRM:
		p.stats.status502CRM.Add(1)
	case res.StatusCode >= 500:
		p.stats.status5xx.Add(1)
	}
	return answer{status: res.StatusCode, body: out}
}

// login signs user in at the brand and answers the access token, retrying
// while the API is down.
func (p *portal) login(ctx context.Context, user string) (string, error) {
	var last error
	for i := 0; i < 60; i++ {
		token, status, err := stack.Login(ctx, p.hc, p.base(), "", brandSlug, user, password)
		if err == nil {
			return token, nil
		}
		if status != 0 && status < 500 {
			return "", err
		}
		last = err
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-time.After(500 * time.Millisecond):
		}
	}
	return "", last
}

// retryable reports whether an answer asks for the same request again (same
// key): no answer at all, 429, or a 5xx other than the CRM's definitive 502.
func retryable(a answer) bool {
	switch {
	case a.err != nil:
		return true
	case a.status == http.StatusTooManyRequests:
		return true
	case a.status == http.StatusBadGateway && a.code() == codeCRM:
		return false
	case a.status >= 500:
		return true
	}
	return false
}

// backoff is the wait before the n-th retry (n from 1), or what Retry-After asked.
func backoff(n int, a answer) time.Duration {
	if s, ok := a.body["__retryAfter"].(float64); ok && s > 0 {
		return min(time.Duration(s)*time.Second, 5*time.Second)
	}
	d := 200 * time.Millisecond << min(n-1, 4)
	return min(d, 3*time.Second)
}

// story is what the clients do with one opportunity after registering it.
type story string

const (
	storyApprove      story = "approve"       // the representative approves it
	storyRefuse       story = "refuse"        // the representative refuses it (a reason)
	storyEdit         story = "edit"          // the representative edits it, then approves it
	storyRenewApprove story = "renew-approve" // approved; the seller asks for a renewal; approved again (a new run)
	storyRenewRefuse  story = "renew-refuse"  // approved; the seller asks for a renewal; refused
	storyCancel       story = "cancel"        // an operator cancels its workflow (temporal workflow cancel)
)

// stories is the mix, one opportunity of a round after the other.
var stories = []story{storyApprove, storyRenewApprove, storyRefuse, storyEdit, storyRenewRefuse, storyApprove, storyCancel, storyRenewApprove}

// op is one opportunity of a round: registered by a seller, then its story.
type op struct {
	round, n   int
	story      story
	key        string // Idempotency-Key of the registration
	id         string // the opportunity id the API derives from the key
	seller     string // seller's e-mail
	name       string // the name the approval gives it
	created    answer // final answer of the registration
	createTry  int
	approveTry int      // requests of the story's decisions
	decisions  int      // decisions sent with a new key after a CRM refusal
	answers    []string // every answer of a step but the expected one, for the report
	calls      []*call  // the calls answered 2xx, sent again with their key later
	cancelled  time.Time
	done       bool // every step answered as expected
	start, end time.Time
}

func (o *op) createdOK() bool {
	return o.created.status == http.StatusOK && o.created.message() == msgCreated
}

// approvedOK: the story ran to its end (inject.go picks approved ones).
func (o *op) approvedOK() bool { return o.done && (o.story == storyApprove || o.story == storyEdit) }

// call is one answered call, kept to be sent again with its key.
type call struct {
	o              *op
	who            string
	method, path   string
	key            string
	body           any
	status         int
	message        string
	repeats        int
	repeatsAnswers []string // repeats answered otherwise
	mu             sync.Mutex
}

// validCNPJ is a valid, distinct customer CNPJ for opportunity n of a run
// (distinct so registrations do not conflict with each other; order number
// never 9999, which the stand-in treats as a missing customer).
func validCNPJ(run int64, n int) string {
	base := fmt.Sprintf("%08d%04d", (run*1000+int64(n))%100000000, 1+n%9000)
	d, _ := cnpj.CheckDigits(base)
	return base + d
}

// registration is the body the registration form posts.
func registration(o *op, doc string) map[string]any {
	return stack.Registration(brandSlug, doc, fmt.Sprintf("Cliente Caos %d-%d", o.round, o.n))
}

// driver runs the clients of a round.
type driver struct {
	p        *portal
	tokens   map[string]string // e-mail → access token
	rep      string            // representative's e-mail
	opTime   time.Duration     // how long a client keeps trying one request
	crmPause time.Duration     // wait before deciding again after a CRM refusal
	think    time.Duration     // mean pause of a client before each registration
	seed     uint64            // seeds each client's pauses
	run      int64
	progress atomic.Int64 // stories ended (any final answer)
	// cancel asks Temporal to cancel an opportunity's workflow (an operator's
	// temporal workflow cancel), until it is accepted; deleted waits until the
	// read model shows the cancel (the row marked deleted).
	cancel  func(ctx context.Context, id string) error
	deleted func(ctx context.Context, id string) error

	callsMu sync.Mutex
	calls   []*call // every call answered 2xx, in answer order
}

// send sends a call until it gets a final answer, retrying with the same key;
// a 2xx answer is kept to be sent again later.
func (d *driver) send(ctx context.Context, o *op, count *int, who, method, path, key string, body any) answer {
	deadline := time.Now().Add(d.opTime)
	tries := 0
	for {
		tries++
		*count++
		a := d.p.call(ctx, method, path, d.tokens[who], key, body)
		if !retryable(a) || time.Now().After(deadline) || ctx.Err() != nil {
			if a.err == nil && a.status/100 == 2 {
				c := &call{o: o, who: who, method: method, path: path, key: key, body: body, status: a.status, message: a.message()}
				d.callsMu.Lock()
				o.calls = append(o.calls, c)
				d.calls = append(d.calls, c)
				d.callsMu.Unlock()
			}
			return a
		}
		sleep(ctx, backoff(tries, a))
	}
}

// register posts the registration until it gets a final answer.
func (d *driver) register(ctx context.Context, o *op) {
	body := registration(o, validCNPJ(d.run, o.round*10000+o.n))
	o.created = d.send(ctx, o, &o.createTry, o.seller, http.MethodPost, "/api/opportunity/create", o.key, body)
}

// decide sends one decision until its expected answer. Retries carry its
// Idempotency-Key; after the CRM's definitive refusal (502
// CRM_COMMUNICATION_ERROR) the person decides again a little later, a new
// decision with a new key, as a person clicking again would.
func (d *driver) decide(ctx context.Context, o *op, who, method, path, step string, body any, want string) bool {
	deadline := time.Now().Add(d.opTime)
	key := o.key + "/" + step
	for n := 1; ; n++ {
		a := d.send(ctx, o, &o.approveTry, who, method, path, key, body)
		if a.status == http.StatusOK && a.message() == want {
			return true
		}
		if a.status == http.StatusBadGateway && a.code() == codeCRM && time.Now().Before(deadline) && ctx.Err() == nil {
			d.p.stats.crmRefusals.Add(1)
			o.decisions++
			key = fmt.Sprintf("%s/%s-%d", o.key, step, n+1)
			sleep(ctx, d.crmPause)
			continue
		}
		o.answers = append(o.answers, fmt.Sprintf("%s (key %s): %s", step, key, a))
		return false
	}
}

// waitStatus reads the opportunity as its seller until it shows status (the
// renewal window opens a few seconds after an approval, by its timer).
func (d *driver) waitStatus(ctx context.Context, o *op, status opportunity.Status) bool {
	deadline := time.Now().Add(d.opTime)
	var last answer
	for time.Now().Before(deadline) && ctx.Err() == nil {
		last = d.p.call(ctx, http.MethodGet, "/api/opportunity/id/"+o.id, d.tokens[o.seller], "", nil)
		if apiStatus(last) == string(status) {
			return true
		}
		sleep(ctx, 500*time.Millisecond)
	}
	o.answers = append(o.answers, fmt.Sprintf("waiting for %s: %s", status, last))
	return false
}

// Answers of the stories' steps (api.Msg…).
const (
	msgDisapproved      = "Oportunidade reprovada com sucesso"
	msgUpdated          = "Oportunidade atualizada com sucesso"
	msgRenewalRequested = "Renovação solicitada com sucesso"
	msgRenewalApproved  = "Renovação aprovada com sucesso"
	msgRenewalRefused   = "Renovação reprovada com sucesso"
)

// play runs the story of a registered opportunity.
func (d *driver) play(ctx context.Context, o *op) {
	path := "/api/opportunity/" + o.id
	approve := map[string]any{"status": "approved", "name": o.name, "probabilityClosing": approvalProbability}
	renewal := map[string]any{"reason": "Cliente retomou o projeto", "probabilityClosing": approvalProbability, "projectStillInScope": "Sim",
		"lastVisitDate": time.Now().AddDate(0, 0, -3).Format(time.DateOnly)}
	renovation := "/api/opportunity/renovation/" + o.id
	ok := true
	step := func(who, method, path, name string, body any, want string) {
		if ok {
			ok = d.decide(ctx, o, who, method, path, name, body, want)
		}
	}
	switch o.story {
	case storyApprove:
		step(d.rep, http.MethodPatch, path, "approve", approve, msgApproved)
	case storyRefuse:
		step(d.rep, http.MethodPatch, path, "refuse", map[string]any{"status": "disapproved", "reason": "Cliente desistiu"}, msgDisapproved)
	case storyEdit:
		step(d.rep, http.MethodPatch, path, "edit", map[string]any{"name": o.name + " (rascunho)", "probabilityClosing": 75}, msgUpdated)
		step(d.rep, http.MethodPatch, path, "approve", approve, msgApproved)
	case storyRenewApprove, storyRenewRefuse:
		step(d.rep, http.MethodPatch, path, "approve", approve, msgApproved)
		ok = ok && d.waitStatus(ctx, o, opportunity.Renovation)
		step(o.seller, http.MethodPatch, renovation+"/request", "renewal", renewal, msgRenewalRequested)
		if o.story == storyRenewApprove {
			step(d.rep, http.MethodPatch, renovation, "renewal-approve", map[string]any{"status": "approved"}, msgRenewalApproved)
		} else {
			step(d.rep, http.MethodPatch, renovation, "renewal-refuse", map[string]any{"status": "disapproved", "reason": "Sem orçamento"}, msgRenewalRefused)
		}
	case storyCancel:
		if err := d.cancel(ctx, o.id); err != nil {
			o.answers = append(o.answers, "operator cancel: "+err.Error())
			ok = false
		} else if err := d.deleted(ctx, o.id); err != nil {
			o.answers = append(o.answers, "operator cancel not recorded: "+err.Error())
			ok = false
		} else {
			o.cancelled = time.Now()
		}
	}
	o.done = ok
}

// repeat sends an answered call again with its key: the answer must be the
// first one's, and nothing may change (the checks count every row after).
func (d *driver) repeat(ctx context.Context, c *call) {
	deadline := time.Now().Add(d.opTime)
	for tries := 1; ; tries++ {
		a := d.p.call(ctx, c.method, c.path, d.tokens[c.who], c.key, c.body)
		if retryable(a) && time.Now().Before(deadline) && ctx.Err() == nil {
			sleep(ctx, backoff(tries, a))
			continue
		}
		c.mu.Lock()
		c.repeats++
		if a.status != c.status || a.message() != c.message {
			c.repeatsAnswers = append(c.repeatsAnswers, fmt.Sprintf("%s %s (key %s), first %d %q, repeated at %s: %s",
				c.method, c.path, c.key, c.status, c.message, time.Now().UTC().Format("15:04:05.000"), a))
		}
		c.mu.Unlock()
		return
	}
}

// answered is a copy of the calls answered 2xx so far.
func (d *driver) answered() []*call {
	d.callsMu.Lock()
	defer d.callsMu.Unlock()
	return append([]*call(nil), d.calls...)
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// runClients has clients goroutines register ops and play their stories,
// each client one opportunity at a time.
func (d *driver) runClients(ctx context.Context, ops []*op, clients int) {
	queue := make(chan *op)
	var wg sync.WaitGroup
	for c := range clients {
		wg.Add(1)
		rng := mrand.New(mrand.NewPCG(d.seed, uint64(c)))
		go func() {
			defer wg.Done()
			for o := range queue {
				if d.think > 0 {
					sleep(ctx, time.Duration(rng.Int64N(2*int64(d.think)+1)))
				}
				o.start = time.Now()
				d.register(ctx, o)
				if o.createdOK() {
					d.play(ctx, o)
				}
				d.progress.Add(1)
				o.end = time.Now()
			}
		}()
	}
	for _, o := range ops {
		queue <- o
	}
	close(queue)
	wg.Wait()
}

// opportunityID is the id the API gives a registration with this key
// (api.opportunityID: brand/user id/key).
func opportunityID(userID, key string) string {
	return opportunity.DerivedID(brandSlug + "/" + userID + "/" + key)
}
