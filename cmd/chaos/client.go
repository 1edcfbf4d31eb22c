package main

import (
	"bytes"
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
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, method, p.base()+path, rd)
	if err != nil {
		return answer{err: err}
	}
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("company", brandSlug)
	req.Header.Set("Content-Type", "application/json")
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
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

// op is one opportunity of a round: registered by a seller, approved by the representative.
type op struct {
	round, n   int
	key        string // Idempotency-Key of the registration
	id         string // the opportunity id the API derives from the key
	seller     string // seller's e-mail
	name       string // the name the approval gives it
	created    answer // final answer of the registration
	createTry  int
	approved   answer // final answer of the (last) approval
	approveTry int
	decisions  int      // approvals sent with a new key after a CRM refusal
	answers    []string // every approval answer but the expected one, for the report
	start, end time.Time
}

func (o *op) createdOK() bool {
	return o.created.status == http.StatusOK && o.created.message() == msgCreated
}
func (o *op) approvedOK() bool {
	return o.approved.status == http.StatusOK && o.approved.message() == msgApproved
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
	crmPause time.Duration     // wait before approving again after a CRM refusal
	think    time.Duration     // mean pause of a client before each registration
	seed     uint64            // seeds each client's pauses
	run      int64
	progress atomic.Int64 // approvals answered (any final answer)
}

// register posts the registration until it gets a final answer.
func (d *driver) register(ctx context.Context, o *op) {
	body := registration(o, validCNPJ(d.run, o.round*10000+o.n))
	deadline := time.Now().Add(d.opTime)
	for {
		o.createTry++
		a := d.p.call(ctx, http.MethodPost, "/api/opportunity/create", d.tokens[o.seller], o.key, body)
		o.created = a
		if !retryable(a) || time.Now().After(deadline) || ctx.Err() != nil {
			return
		}
		sleep(ctx, backoff(o.createTry, a))
	}
}

// approve sends the representative's approval until it gets a final answer.
// Retries of one decision carry its Idempotency-Key; after the CRM's
// definitive refusal (502 CRM_COMMUNICATION_ERROR) the representative decides
// again a little later, a new decision with a new key, as a person clicking
// Aprovar again would.
func (d *driver) approve(ctx context.Context, o *op) {
	defer d.progress.Add(1)
	body := map[string]any{"status": "approved", "name": o.name, "probabilityClosing": approvalProbability}
	deadline := time.Now().Add(d.opTime)
	key := o.key + "/approve"
	tries := 0
	for {
		o.approveTry++
		tries++
		a := d.p.call(ctx, http.MethodPatch, "/api/opportunity/"+o.id, d.tokens[d.rep], key, body)
		o.approved = a
		if a.status == http.StatusOK && a.message() == msgApproved {
			return
		}
		expired := time.Now().After(deadline) || ctx.Err() != nil
		switch {
		case retryable(a) && !expired:
			sleep(ctx, backoff(tries, a))
		case a.status == http.StatusBadGateway && a.code() == codeCRM && !expired:
			d.p.stats.crmRefusals.Add(1)
			o.decisions++
			key = fmt.Sprintf("%s/approve-%d", o.key, o.decisions+1)
			tries = 0
			sleep(ctx, d.crmPause)
		default:
			o.answers = append(o.answers, fmt.Sprintf("try %d (key %s): %s", o.approveTry, key, a))
			return
		}
	}
}

func sleep(ctx context.Context, d time.Duration) {
	select {
	case <-ctx.Done():
	case <-time.After(d):
	}
}

// runClients has clients goroutines register and approve ops, each client one
// opportunity at a time.
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
					d.approve(ctx, o)
				} else {
					d.progress.Add(1)
				}
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
