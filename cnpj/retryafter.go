package cnpj

import (
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"
)

// MaxProviderWait bounds the wait a provider's Retry-After may ask of a user.
const MaxProviderWait = time.Hour

// RateLimitError is a provider's refusal for too many requests. It is
// ErrRateLimited (errors.Is) and carries the provider's Retry-After, which the
// handler passes on to the user (0: the provider did not say).
type RateLimitError struct {
	Provider   string
	RetryAfter time.Duration
	Detail     string
}

func (e *RateLimitError) Error() string {
	s := "cnpj: provider rate limit: " + e.Provider
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.RetryAfter > 0 {
		s += fmt.Sprintf(" (retry after %v)", e.RetryAfter)
	}
	return s
}

// Unwrap makes the error ErrRateLimited.
func (e *RateLimitError) Unwrap() error { return ErrRateLimited }

// rateLimited is the RateLimitError of a provider's answer, with its Retry-After.
func rateLimited(provider string, res *http.Response, detail string) error {
	wait, _ := ParseRetryAfter(res.Header.Get("Retry-After"), res.Header.Get("Date"), time.Now())
	return &RateLimitError{Provider: provider, RetryAfter: wait, Detail: detail}
}

// ParseRetryAfter reads a Retry-After value (RFC 9110 §10.2.3): delay-seconds
// (one or more digits) or an HTTP-date in any of the three forms a recipient
// must accept (RFC 9110 §5.6.7: IMF-fixdate, RFC 850, asctime), counted from
// the answer's Date when it has one (the provider's clock, not ours), else from
// now. A date already past, or 0 seconds, is a wait of 1 s. ok is false for a missing or
// malformed value. The wait is at most MaxProviderWait.
func ParseRetryAfter(v, date string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	if strings.Trim(v, "0123456789") == "" {
		n, err := strconv.ParseInt(v, 10, 64)
		switch {
		case err != nil || n > int64(MaxProviderWait/time.Second):
			return MaxProviderWait, true // too many digits is still a long wait
		case n == 0:
			return time.Second, true
		}
		return time.Duration(n) * time.Second, true
	}
	at, err := http.ParseTime(v)
	if err != nil {
		return 0, false
	}
	if d, err := http.ParseTime(strings.TrimSpace(date)); err == nil {
		now = d
	}
	wait := at.Sub(now)
	switch {
	case wait < time.Second:
		return time.Second, true
	case wait > MaxProviderWait:
		return MaxProviderWait, true
	}
	return wait, true
}
