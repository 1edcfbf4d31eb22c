package main

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"sync/atomic"
	"time"
)

// Result is what one phase measured: n calls of one kind by some clients.
type Result struct {
	Call     string  `json:"call"`
	Kind     string  `json:"kind"` // registration, approval, read, engine-uws, engine-update
	Clients  int     `json:"clients"`
	Replicas int     `json:"replicas,omitempty"` // api/worker pairs (0: the engine alone)
	Calls    int     `json:"calls"`              // answered as expected
	Errors   int     `json:"errors"`             // a failed call or an unexpected answer
	P50      float64 `json:"p50_ms"`
	P95      float64 `json:"p95_ms"`
	P99      float64 `json:"p99_ms"`
	Max      float64 `json:"max_ms"`
	PerSec   float64 `json:"per_second"` // calls answered as expected per second of the phase
	Seconds  float64 `json:"seconds"`
	// Engine and Ratio compare a write with the bare engine of the same run:
	// with one client, p50 over the engine's p50 (1.0 = as fast); with more,
	// throughput over the engine's (1.0 = as many a second).
	Engine      string   `json:"engine_alone,omitempty"`
	Ratio       float64  `json:"ratio,omitempty"`
	RatioOf     string   `json:"ratio_of,omitempty"` // "p50" or "/s"
	FirstErrors []string `json:"first_errors,omitempty"`
}

// callFunc makes the i-th call of a phase; an error is a failed call.
type callFunc func(ctx context.Context, i int) error

// runPhase has clients goroutines make calls 0..n-1 between them, each one
// at a time, and no new call after limit.
func runPhase(ctx context.Context, call, kind string, clients, n int, limit time.Duration, fn callFunc) *Result {
	r := &Result{Call: call, Kind: kind, Clients: clients}
	var next atomic.Int64
	var mu sync.Mutex
	var took []time.Duration
	var last time.Time
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1) - 1)
				if i >= n || ctx.Err() != nil || time.Since(start) > limit {
					return
				}
				t0 := time.Now()
				err := fn(ctx, i)
				d := time.Since(t0)
				mu.Lock()
				if end := t0.Add(d); end.After(last) {
					last = end
				}
				if err != nil {
					r.Errors++
					if len(r.FirstErrors) < 5 {
						r.FirstErrors = append(r.FirstErrors, fmt.Sprintf("call %d: %v", i, err))
					}
				} else {
					took = append(took, d)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	r.Calls = len(took)
	if last.IsZero() {
		last = time.Now()
	}
	wall := last.Sub(start)
	r.Seconds = wall.Seconds()
	if wall > 0 {
		r.PerSec = float64(r.Calls) / wall.Seconds()
	}
	r.P50, r.P95, r.P99, r.Max = percentile(took, 50), percentile(took, 95), percentile(took, 99), percentile(took, 100)
	return r
}

// percentile is the nearest-rank p-th percentile of ds in milliseconds (0 when empty).
func percentile(ds []time.Duration, p float64) float64 {
	if len(ds) == 0 {
		return 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	rank := int(p/100*float64(len(s)) + 0.999999999)
	rank = min(max(rank, 1), len(s))
	return float64(s[rank-1]) / float64(time.Millisecond)
}

// compare sets r's engine-alone figure and ratio from the engine's phase e
// with as many clients: p50 with one client, throughput with more.
func compare(r, e *Result) {
	if e == nil || e.Calls == 0 {
		return
	}
	if r.Clients == 1 {
		r.Engine, r.RatioOf = fmt.Sprintf("p50 %.1f ms", e.P50), "p50"
		if e.P50 > 0 {
			r.Ratio = r.P50 / e.P50
		}
		return
	}
	r.Engine, r.RatioOf = fmt.Sprintf("%.1f /s", e.PerSec), "/s"
	if e.PerSec > 0 {
		r.Ratio = r.PerSec / e.PerSec
	}
}
