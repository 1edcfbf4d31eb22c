package crmsim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
)

// The Composite resource (POST /services/data/vXX.X/composite): up to 25
// subrequests run in order in one call, a later one referring to an earlier
// answer as @{referenceId.path} (e.g. @{opp.id}, @{account.records[0].Id}).
// With allOrNone every subrequest runs in one transaction: when one fails,
// everything is rolled back, the failing subrequest keeps its error and every
// other one answers 400 PROCESSING_HALTED. Without it, a subrequest whose
// reference cannot be resolved answers 400 PROCESSING_HALTED and the others run.
// The call itself answers 200 with compositeResponse, one entry per subrequest.

const (
	maxCompositeBody   = 8 << 20
	maxSubrequests     = 25
	maxQueryOrCollects = 5 // query and sObject Collections subrequests in one call
)

type compositeSub struct {
	Method      string            `json:"method"`
	URL         string            `json:"url"`
	ReferenceID string            `json:"referenceId"`
	Body        json.RawMessage   `json:"body"`
	HTTPHeaders map[string]string `json:"httpHeaders"`
}

type compositeResult struct {
	Body           any               `json:"body"`
	HTTPHeaders    map[string]string `json:"httpHeaders"`
	HTTPStatusCode int               `json:"httpStatusCode"`
	ReferenceID    string            `json:"referenceId"`
}

type errEntry struct {
	Message   string `json:"message"`
	ErrorCode string `json:"errorCode"`
}

func haltedResult(ref, msg string) compositeResult {
	return compositeResult{Body: []errEntry{{Message: msg, ErrorCode: "PROCESSING_HALTED"}}, HTTPHeaders: map[string]string{},
		HTTPStatusCode: http.StatusBadRequest, ReferenceID: ref}
}

const rolledBackMsg = "The transaction was rolled back since another operation in the same transaction failed."

var (
	referenceIDRE = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	referenceRE   = regexp.MustCompile(`@\{([A-Za-z0-9_]+)((?:\.[A-Za-z0-9_]+|\[[0-9]+\])*)\}`)
	pathStepRE    = regexp.MustCompile(`\.([A-Za-z0-9_]+)|\[([0-9]+)\]`)
)

func (s *Sim) handleComposite(w http.ResponseWriter, r *http.Request, version string) {
	var in struct {
		AllOrNone          bool           `json:"allOrNone"`
		CollateSubrequests bool           `json:"collateSubrequests"`
		CompositeRequest   []compositeSub `json:"compositeRequest"`
	}
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, maxCompositeBody))
	if err := dec.Decode(&in); err != nil {
		writeErrors(w, &sfError{400, "JSON_PARSER_ERROR", "The request body is not valid JSON: " + err.Error()})
		return
	}
	if e := checkComposite(in.CompositeRequest); e != nil {
		writeErrors(w, e)
		return
	}
	ctx := r.Context()
	if token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		ctx = context.WithValue(ctx, subrequestKey{}, token)
	}
	var tx pgx.Tx
	if in.AllOrNone {
		var err error
		if tx, err = s.db.Begin(ctx); err != nil {
			writeErrors(w, asSFError(err))
			return
		}
		defer tx.Rollback(context.WithoutCancel(ctx)) //nolint:errcheck
		ctx = context.WithValue(ctx, txKey{}, tx)
	}
	subs := in.CompositeRequest
	results := make([]compositeResult, len(subs))
	answers := map[string]any{} // decoded bodies of the subrequests that succeeded
	failed := -1
	for i, sub := range subs {
		if failed >= 0 && in.AllOrNone {
			results[i] = haltedResult(sub.ReferenceID, rolledBackMsg)
			continue
		}
		target, err := substitute(sub.URL, answers, false)
		var body []byte
		if err == nil && len(sub.Body) > 0 && string(sub.Body) != "null" {
			var b string
			b, err = substitute(string(sub.Body), answers, true)
			body = []byte(b)
		}
		if err != nil {
			results[i] = haltedResult(sub.ReferenceID, err.Error())
			if in.AllOrNone {
				failed = i
			}
			continue
		}
		res := s.runSub(ctx, r, sub, target, body)
		results[i] = res
		switch {
		case res.HTTPStatusCode >= 400:
			if in.AllOrNone {
				failed = i
			}
		case in.AllOrNone && collectionFailed(res):
			// The call's allOrNone applies to its sObject Collections too.
			failed = i
		default:
			answers[sub.ReferenceID] = res.Body
		}
	}
	if in.AllOrNone {
		if failed >= 0 {
			_ = tx.Rollback(ctx)
			for i := range results {
				if i != failed {
					results[i] = haltedResult(subs[i].ReferenceID, rolledBackMsg)
				}
			}
		} else if err := tx.Commit(ctx); err != nil {
			writeErrors(w, asSFError(err))
			return
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"compositeResponse": results})
}

// checkComposite refuses a malformed call before any subrequest runs (HTTP 400).
func checkComposite(subs []compositeSub) *sfError {
	switch {
	case len(subs) == 0:
		return &sfError{400, "INVALID_INPUT", "compositeRequest is required and must hold at least one subrequest"}
	case len(subs) > maxSubrequests:
		return &sfError{400, "LIMIT_EXCEEDED", fmt.Sprintf("A composite request can hold at most %d subrequests; it has %d", maxSubrequests, len(subs))}
	}
	seen := map[string]bool{}
	heavy := 0
	for _, sub := range subs {
		switch {
		case sub.ReferenceID == "":
			return &sfError{400, "INVALID_INPUT", "Received invalid request: referenceId is required"}
		case !referenceIDRE.MatchString(sub.ReferenceID):
			return &sfError{400, "INVALID_INPUT", fmt.Sprintf("Invalid referenceId %q: only letters, numbers and underscores are allowed", sub.ReferenceID)}
		case seen[sub.ReferenceID]:
			return &sfError{400, "INVALID_INPUT", fmt.Sprintf("Duplicate referenceId %q", sub.ReferenceID)}
		}
		seen[sub.ReferenceID] = true
		switch sub.Method {
		case http.MethodGet, http.MethodPost, http.MethodPatch, http.MethodPut, http.MethodDelete:
		default:
			return &sfError{400, "INVALID_INPUT", fmt.Sprintf("Invalid method %q in subrequest %s", sub.Method, sub.ReferenceID)}
		}
		if !strings.HasPrefix(sub.URL, "/services/data/") {
			return &sfError{400, "INVALID_INPUT", fmt.Sprintf("Invalid url %q in subrequest %s", sub.URL, sub.ReferenceID)}
		}
		for h := range sub.HTTPHeaders {
			switch strings.ToLower(h) {
			case "accept", "authorization", "content-type":
				return &sfError{400, "INVALID_INPUT", fmt.Sprintf("Subrequest %s may not set the %s header", sub.ReferenceID, h)}
			}
		}
		path, _, _ := strings.Cut(sub.URL, "?")
		if c := PathClass(path); c == "query" || c == "collections" {
			heavy++
		}
	}
	if heavy > maxQueryOrCollects {
		return &sfError{400, "LIMIT_EXCEEDED", fmt.Sprintf("A composite request can hold at most %d query or sObject Collections subrequests", maxQueryOrCollects)}
	}
	return nil
}

// runSub answers one subrequest through the API's routes, with the call's
// session and context (its transaction, under allOrNone).
func (s *Sim) runSub(ctx context.Context, parent *http.Request, sub compositeSub, target string, body []byte) compositeResult {
	var rd io.Reader
	if body != nil {
		rd = bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, sub.Method, "http://"+parent.Host+target, rd)
	if err != nil {
		return compositeResult{Body: []errEntry{{Message: "Invalid url: " + err.Error(), ErrorCode: "NOT_FOUND"}},
			HTTPHeaders: map[string]string{}, HTTPStatusCode: http.StatusNotFound, ReferenceID: sub.ReferenceID}
	}
	req.Header.Set("Authorization", parent.Header.Get("Authorization"))
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for k, v := range sub.HTTPHeaders {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	s.api.ServeHTTP(rec, req)
	s.record(req, rec.Code, sub.ReferenceID)
	res := compositeResult{HTTPHeaders: map[string]string{}, HTTPStatusCode: rec.Code, ReferenceID: sub.ReferenceID}
	if loc := rec.Header().Get("Location"); loc != "" {
		res.HTTPHeaders["Location"] = loc
	}
	if data := bytes.TrimSpace(rec.Body.Bytes()); len(data) > 0 {
		d := json.NewDecoder(bytes.NewReader(data))
		d.UseNumber()
		var v any
		if d.Decode(&v) == nil {
			res.Body = v
		}
	}
	return res
}

// collectionFailed reports an sObject Collections answer with a failed record.
func collectionFailed(res compositeResult) bool {
	list, ok := res.Body.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		if m, ok := e.(map[string]any); ok {
			if okv, has := m["success"].(bool); has && !okv {
				return true
			}
		}
	}
	return false
}

// substitute replaces every @{ref.path} by the value it names in an earlier
// answer (JSON-escaped inside a body).
func substitute(text string, answers map[string]any, inJSON bool) (string, error) {
	var failure error
	out := referenceRE.ReplaceAllStringFunc(text, func(m string) string {
		if failure != nil {
			return m
		}
		sub := referenceRE.FindStringSubmatch(m)
		ref, path := sub[1], sub[2]
		v, ok := answers[ref]
		if ok {
			v, ok = walk(v, path)
		}
		var str string
		switch x := v.(type) {
		case string:
			str = x
		case json.Number:
			str = x.String()
		case bool:
			str = strconv.FormatBool(x)
		default:
			ok = false
		}
		if !ok {
			known := make([]string, 0, len(answers))
			for k := range answers {
				known = append(known, k)
			}
			sort.Strings(known)
			// Salesforce's own wording.
			failure = refFailure(fmt.Sprintf("Invalid reference specified. No value for %s%s found in %s. Provided referenceId ids are [%s].",
				ref, path, ref, strings.Join(known, ", ")))
			return m
		}
		if inJSON {
			b, _ := json.Marshal(str)
			return string(b[1 : len(b)-1])
		}
		return str
	})
	return out, failure
}

// refFailure is a reference that names no value, in Salesforce's words.
type refFailure string

func (e refFailure) Error() string { return string(e) }

// walk follows ".field" and "[i]" steps through a decoded JSON value.
func walk(v any, path string) (any, bool) {
	for _, step := range pathStepRE.FindAllStringSubmatch(path, -1) {
		switch cur := v.(type) {
		case map[string]any:
			if step[1] == "" {
				return nil, false
			}
			var found bool
			for k, x := range cur {
				if k == step[1] {
					v, found = x, true
					break
				}
			}
			if !found {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(step[2])
			if step[2] == "" || err != nil || i >= len(cur) {
				return nil, false
			}
			v = cur[i]
		default:
			return nil, false
		}
	}
	return v, true
}
