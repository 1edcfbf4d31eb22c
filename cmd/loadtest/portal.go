package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"sync/atomic"
	"time"

	"oportuna/api"
	"oportuna/cnpj"
	"oportuna/internal/stack"
)

// portal calls the API as the web app does, spreading the calls over every
// API replica in turn.
type portal struct {
	bases []string
	host  string // Host header (empty: the URL's)
	brand string
	hc    *http.Client
	next  atomic.Uint64
}

func newPortal(bases []string, host, brand string, clients int) *portal {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConns, tr.MaxIdleConnsPerHost = 4*clients, 2*clients
	return &portal{bases: bases, host: host, brand: brand, hc: &http.Client{Timeout: 2 * time.Minute, Transport: tr}}
}

func (p *portal) base() string {
	return p.bases[int(p.next.Add(1)-1)%len(p.bases)]
}

// call sends one request and decodes the JSON answer into out (when not nil);
// a status other than want is an error that quotes the answer's message.
func (p *portal) call(ctx context.Context, method, path, token, key string, body any, want int, out any) error {
	req, err := stack.APIRequest(ctx, method, p.base()+path, token, p.brand, key, body)
	if err != nil {
		return err
	}
	if p.host != "" {
		req.Host = p.host
	}
	res, err := p.hc.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(res.Body)
	if err != nil {
		return fmt.Errorf("%s %s: reading the answer: %w", method, path, err)
	}
	if res.StatusCode != want {
		var m struct {
			Message string `json:"message"`
			Code    string `json:"code"`
		}
		_ = json.Unmarshal(raw, &m)
		return fmt.Errorf("%s %s: HTTP %d %q %s", method, path, res.StatusCode, m.Message, m.Code)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			return fmt.Errorf("%s %s: %w", method, path, err)
		}
	}
	return nil
}

// login signs user in and answers the access token.
func (p *portal) login(ctx context.Context, user, password string) (string, error) {
	token, _, err := stack.Login(ctx, p.hc, p.base(), p.host, p.brand, user, password)
	return token, err
}

// opp is one opportunity the load test registered.
type opp struct {
	id, key, seller string
	approved        bool
}

// register posts the registration form of customer n (a valid CNPJ of its
// own) as seller and answers the opportunity.
func (p *portal) register(ctx context.Context, token, seller, key string, run int64, n int) (*opp, error) {
	var out struct {
		Message string `json:"message"`
		Data    struct {
			ID     string `json:"id"`
			Status string `json:"status"`
		} `json:"data"`
	}
	if err := p.call(ctx, http.MethodPost, "/api/opportunity/create", token, key, registration(p.brand, customerCNPJ(run, n), n), http.StatusOK, &out); err != nil {
		return nil, err
	}
	if out.Message != api.MsgCreated || out.Data.ID == "" {
		return nil, fmt.Errorf("registration answered %q, id %q", out.Message, out.Data.ID)
	}
	return &opp{id: out.Data.ID, key: key, seller: seller}, nil
}

// approve approves o as the representative, with the decision's Idempotency-Key.
func (p *portal) approve(ctx context.Context, token string, o *opp) error {
	body := map[string]any{"status": "approved", "name": "Carga " + o.key, "probabilityClosing": approvalProbability}
	var out struct {
		Message string `json:"message"`
	}
	if err := p.call(ctx, http.MethodPatch, "/api/opportunity/"+o.id, token, o.key+"/approve", body, http.StatusOK, &out); err != nil {
		return err
	}
	if out.Message != api.MsgApproved {
		return fmt.Errorf("approval answered %q", out.Message)
	}
	return nil
}

const approvalProbability = 50

// customerCNPJ is a valid CNPJ, the head office (branch 0001; never 9999,
// which the Salesforce stand-in treats as a customer it lacks), of customer n
// of run: a company of its own (its CNPJ root) for every n below 10^8 and,
// with a random run, across runs, so that no registration conflicts with
// another (docs/deal-desk.md: the same root is the same customer, and the
// approval of a second registration asks for a reason).
func customerCNPJ(run int64, n int) string {
	root := (run + int64(n)) % 100_000_000
	base := fmt.Sprintf("%08d0001", root)
	d, _ := cnpj.CheckDigits(base)
	return base + d
}

// registration is the body the registration form posts for customer n.
func registration(brand, doc string, n int) map[string]any {
	return stack.Registration(brand, doc, fmt.Sprintf("Cliente Carga %d", n))
}
