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

// Err is the subrequest's refusal as the client types it (nil for a 2xx
// answer): 300 is ErrMultipleMatches, and so on as for a call of its own.
func (r SubResult) Err() error {
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
	if err := r.Err(); err != nil {
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
			err := r.Err()
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
// usage on every REST answer (REST API Developer Guide, "Limit Info Header",
// https://developer.salesforce.com/docs/atlas.en-us.api_rest.meta/api_rest/headers_api_usage.htm),
// in one of three forms:
//
//	api-usage=18/5000
//	api-usage=25/5000; per-app-api-usage=17/250(appName=sample-connected-app)
//	api-usage=110018/100000; api-bursts=1/750
const LimitInfoHeader = "Sforce-Limit-Info"

// LimitInfo is what one Sforce-Limit-Info header tells.
type LimitInfo struct {
	Used, Limit int64 // api-usage: the org's API requests in the last 24 hours, and its limit
	// per-app-api-usage, when the connected app has a quota: its name, usage and quota.
	App               string
	AppUsed, AppLimit int64
	// api-bursts, when the org runs past its limit on its burst allowance.
	BurstsUsed, BurstsLimit int64
}

// ParseLimitInfo reads a Sforce-Limit-Info value in any of its forms: entries
// separated by ";" (or ","), api-usage required, per-app-api-usage and
// api-bursts read when present, unknown entries ignored. The usage may exceed
// the limit (an org on burst allowance).
func ParseLimitInfo(v string) (LimitInfo, bool) {
	var li LimitInfo
	seen := false
	for _, part := range strings.FieldsFunc(v, func(r rune) bool { return r == ';' || r == ',' }) {
		k, val, found := strings.Cut(strings.TrimSpace(part), "=")
		if !found {
			continue
		}
		val = strings.TrimSpace(val)
		app := ""
		if i := strings.IndexByte(val, '('); i >= 0 {
			inner := strings.TrimSuffix(strings.TrimSpace(val[i+1:]), ")")
			if n, name, ok := strings.Cut(inner, "="); ok && strings.EqualFold(strings.TrimSpace(n), "appName") {
				app = strings.TrimSpace(name)
			}
			val = strings.TrimSpace(val[:i])
		}
		used, limit, ok := parseRatio(val)
		switch strings.ToLower(strings.TrimSpace(k)) {
		case "api-usage":
			if !ok {
				return LimitInfo{}, false
			}
			li.Used, li.Limit, seen = used, limit, true
		case "per-app-api-usage":
			if ok {
				li.App, li.AppUsed, li.AppLimit = app, used, limit
			}
		case "api-bursts":
			if ok {
				li.BurstsUsed, li.BurstsLimit = used, limit
			}
		}
	}
	return li, seen
}

// parseRatio reads "used/limit" (limit positive).
func parseRatio(v string) (used, limit int64, ok bool) {
	a, b, found := strings.Cut(v, "/")
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

// apiUsage holds the last usage the org reported, and whether it refused a
// call since for its limit (REQUEST_LIMIT_EXCEEDED).
type apiUsage struct {
	mu       sync.Mutex
	info     LimitInfo
	at       time.Time
	exceeded time.Time // when the org last answered REQUEST_LIMIT_EXCEEDED; zero after a later readable header
}

// note reads a Sforce-Limit-Info value; anything else leaves the usage as it was.
func (u *apiUsage) note(v string) {
	li, ok := ParseLimitInfo(v)
	if !ok {
		return
	}
	u.mu.Lock()
	u.info, u.at, u.exceeded = li, time.Now(), time.Time{}
	u.mu.Unlock()
}

// refused records a REQUEST_LIMIT_EXCEEDED answer (after its header was noted).
func (u *apiUsage) refused() {
	u.mu.Lock()
	u.exceeded = time.Now()
	u.mu.Unlock()
}

// APIUsage is the org's API usage in the last 24 hours as its last answer
// reported it (Sforce-Limit-Info api-usage): requests used, the limit, and
// when it was read; ok is false before any answer carried it.
func (s *Salesforce) APIUsage() (used, limit int64, at time.Time, ok bool) {
	s.usage.mu.Lock()
	defer s.usage.mu.Unlock()
	return s.usage.info.Used, s.usage.info.Limit, s.usage.at, !s.usage.at.IsZero()
}

// AppAPIUsage is the connected app's usage of its own quota (per-app-api-usage)
// as the last answer reported it; ok is false when the answer had none.
func (s *Salesforce) AppAPIUsage() (app string, used, limit int64, ok bool) {
	s.usage.mu.Lock()
	defer s.usage.mu.Unlock()
	i := s.usage.info
	return i.App, i.AppUsed, i.AppLimit, i.AppLimit > 0
}

// APIPressure is the share of the org's 24-hour API limit in use, as the last
// answer told it, and when that was learnt: used/limit of the header (the
// larger of the org's and the connected app's quota), or at least 1 after the
// org refused a call with REQUEST_LIMIT_EXCEEDED. ok is false before either.
func (s *Salesforce) APIPressure() (ratio float64, at time.Time, ok bool) {
	s.usage.mu.Lock()
	defer s.usage.mu.Unlock()
	u := &s.usage
	if !u.at.IsZero() && u.info.Limit > 0 {
		ratio, at, ok = float64(u.info.Used)/float64(u.info.Limit), u.at, true
		if u.info.AppLimit > 0 {
			ratio = max(ratio, float64(u.info.AppUsed)/float64(u.info.AppLimit))
		}
	}
	if !u.exceeded.IsZero() {
		ratio, at, ok = max(ratio, 1), u.exceeded, true
	}
	return ratio, at, ok
}

// BackgroundWait tells a background sync (one nobody waits for) to leave the
// org alone: while the usage last seen (APIPressure) is at or above
// BackgroundCeiling of the limit, it answers how long until that reading is
// BackgroundPause old, and why. A reading that old lets the next call through,
// and its answer reads the usage anew. Zero when the sync may call.
func (s *Salesforce) BackgroundWait() (time.Duration, string) {
	ratio, at, ok := s.APIPressure()
	if !ok || ratio < s.cfg.BackgroundCeiling {
		return 0, ""
	}
	wait := s.cfg.BackgroundPause - time.Since(at)
	if wait <= 0 {
		return 0, ""
	}
	return wait, fmt.Sprintf("the org's API usage is %.0f%% of its limit (background syncs pause from %.0f%%)",
		ratio*100, s.cfg.BackgroundCeiling*100)
}
