package crm

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"
)

// --- Composite API ----------------------------------------------------------------

// Subrequest is one request of a Composite call (POST /composite).
type Subrequest struct {
	Method      string `json:"method"`
	URL         string `json:"url"`
	ReferenceID string `json:"referenceId"`
	Body        any    `json:"body,omitempty"`
}

// SubResult is the answer to one subrequest.
type SubResult struct {
	Body           json.RawMessage   `json:"body"`
	HTTPHeaders    map[string]string `json:"httpHeaders"`
	HTTPStatusCode int               `json:"httpStatusCode"`
	ReferenceID    string            `json:"referenceId"`
}

// ok reports a 2xx answer.
func (r SubResult) ok() bool { return r.HTTPStatusCode >= 200 && r.HTTPStatusCode <= 299 }

// err is the subrequest's refusal (nil for a 2xx answer).
func (r SubResult) err() error {
	if r.ok() {
		return nil
	}
	return apiError(r.HTTPStatusCode, r.Body)
}

// codeProcessingHalted marks the subrequests of an all-or-none Composite call
// that were rolled back (or not run) because another one failed.
const codeProcessingHalted = "PROCESSING_HALTED"

// Composite sends subrequests in one HTTP request (POST /composite; the whole
// call counts as one API request against the org's limits). With allOrNone a
// failing subrequest rolls every other one back. The answers come back by
// reference id; a refusal of the call itself is an *APIError as for any call.
func (s *Salesforce) Composite(ctx context.Context, allOrNone bool, subs []Subrequest) (map[string]SubResult, error) {
	var res struct {
		CompositeResponse []SubResult `json:"compositeResponse"`
	}
	body := map[string]any{"allOrNone": allOrNone, "collateSubrequests": false, "compositeRequest": subs}
	if _, err := s.call(ctx, http.MethodPost, s.dataPath("/composite"), body, &res); err != nil {
		return nil, err
	}
	out := make(map[string]SubResult, len(res.CompositeResponse))
	for _, r := range res.CompositeResponse {
		out[r.ReferenceID] = r
	}
	for _, sub := range subs {
		if _, ok := out[sub.ReferenceID]; !ok {
			return nil, fmt.Errorf("crm: the composite answer lacks subrequest %q", sub.ReferenceID)
		}
	}
	return out, nil
}

// queryURL is the URL of a SOQL query as a subrequest.
func (s *Salesforce) queryURL(soql string) string {
	return s.dataPath("/query?q=" + url.QueryEscape(soql))
}

// decodeQuery reads a query subrequest's answer, following nextRecordsUrl
// with more calls when the answer holds more than one page.
func decodeQuery[T any](ctx context.Context, s *Salesforce, r SubResult) ([]T, error) {
	if err := r.err(); err != nil {
		return nil, err
	}
	var page queryPage
	if err := json.Unmarshal(r.Body, &page); err != nil {
		return nil, fmt.Errorf("crm: decode query answer %s: %w", r.ReferenceID, err)
	}
	raw := page.Records
	for !page.Done && page.NextRecordsURL != "" {
		if !strings.HasPrefix(page.NextRecordsURL, "/services/data/") {
			return nil, fmt.Errorf("crm: unexpected nextRecordsUrl %q", page.NextRecordsURL)
		}
		next := page.NextRecordsURL
		page = queryPage{}
		if _, err := s.call(ctx, http.MethodGet, next, nil, &page); err != nil {
			return nil, err
		}
		raw = append(raw, page.Records...)
	}
	out := make([]T, len(raw))
	for i, rec := range raw {
		if err := json.Unmarshal(rec, &out[i]); err != nil {
			return nil, fmt.Errorf("crm: decode record: %w", err)
		}
	}
	return out, nil
}

// compositeError is the first refusal in the answers of an all-or-none call,
// in the order of subs: a subrequest's error array, or the failed records of
// an sObject Collections subrequest. Subrequests answered PROCESSING_HALTED
// only tell that another one failed; when nothing else explains the rollback
// the call is reported as a retryable ErrUnavailable.
func compositeError(subs []Subrequest, res map[string]SubResult) error {
	halted := false
	for _, sub := range subs {
		r := res[sub.ReferenceID]
		if !r.ok() {
			err := r.err()
			if e, ok := err.(*APIError); ok && e.Code == codeProcessingHalted {
				halted = true
				continue
			}
			return err
		}
		if !strings.Contains(sub.URL, "/composite/sobjects") {
			continue
		}
		var results []collectionResult
		if json.Unmarshal(r.Body, &results) != nil {
			continue
		}
		if err := collectionError(results); err != nil {
			return err
		}
		for _, c := range results {
			for _, e := range c.Errors {
				if e.code() == "ENTITY_IS_DELETED" {
					// A line deleted meanwhile: the rollback undid the call; the
					// next attempt reads the lines again.
					return &APIError{Status: http.StatusConflict, Code: e.code(), Message: e.Message, kind: ErrUnavailable}
				}
			}
		}
	}
	if halted {
		return &APIError{Status: http.StatusBadRequest, Code: codeProcessingHalted, Message: "the composite call was rolled back", kind: ErrUnavailable}
	}
	return nil
}

// --- Sforce-Limit-Info -----------------------------------------------------------------

// LimitInfoHeader is the header in which Salesforce reports the org's API
// usage on every REST answer: "api-usage=18/100000".
const LimitInfoHeader = "Sforce-Limit-Info"

// apiUsage holds the last usage the org reported.
type apiUsage struct {
	mu          sync.Mutex
	used, limit int64
	at          time.Time
}

// note reads a Sforce-Limit-Info value; anything else leaves the usage as it was.
func (u *apiUsage) note(v string) {
	used, limit, ok := ParseLimitInfo(v)
	if !ok {
		return
	}
	u.mu.Lock()
	u.used, u.limit, u.at = used, limit, time.Now()
	u.mu.Unlock()
}

// ParseLimitInfo reads the api-usage entry of a Sforce-Limit-Info header
// ("api-usage=18/100000", possibly among other comma-separated entries).
func ParseLimitInfo(v string) (used, limit int64, ok bool) {
	for _, part := range strings.Split(v, ",") {
		k, val, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found || !strings.EqualFold(strings.TrimSpace(k), "api-usage") {
			continue
		}
		a, b, found := strings.Cut(strings.TrimSpace(val), "/")
		if !found {
			return 0, 0, false
		}
		u, err1 := strconv.ParseInt(strings.TrimSpace(a), 10, 64)
		l, err2 := strconv.ParseInt(strings.TrimSpace(b), 10, 64)
		if err1 != nil || err2 != nil || u < 0 || l <= 0 {
			return 0, 0, false
		}
		return u, l, true
	}
	return 0, 0, false
}

// APIUsage is the org's API usage in the last 24 hours as its last answer
// reported it (Sforce-Limit-Info): requests used, the limit, and when it was
// read; ok is false before any answer carried it.
func (s *Salesforce) APIUsage() (used, limit int64, at time.Time, ok bool) {
	s.usage.mu.Lock()
	defer s.usage.mu.Unlock()
	return s.usage.used, s.usage.limit, s.usage.at, !s.usage.at.IsZero()
}
