package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
)

// report prints the run as Markdown (a note can quote it as it is) and
// answers whether anything failed: a call, an unexpected answer or a check.
func (lt *loadtest) report(w io.Writer, findings []string) bool {
	fmt.Fprintln(w)
	for _, l := range lt.header() {
		fmt.Fprintf(w, "%s  \n", l)
	}
	fmt.Fprintln(w)
	writeTable(w, lt.results)
	failed := false
	errs := 0
	for _, r := range append(append(append([]*Result{}, lt.warm...), lt.results...), lt.scale...) {
		errs += r.Errors
	}
	if len(lt.scale) > 0 {
		fmt.Fprintln(w)
		writeScale(w, lt.scale)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, lt.history.String())
	if errs == 0 {
		fmt.Fprintln(w, "Errors: none.")
	} else {
		failed = true
		fmt.Fprintf(w, "Errors: %d.\n", errs)
		for _, r := range append(append(append([]*Result{}, lt.warm...), lt.results...), lt.scale...) {
			for _, e := range r.FirstErrors {
				fmt.Fprintf(w, "- %s: %s\n", r.Call, e)
			}
		}
	}
	switch {
	case lt.t.databaseURL == "":
		fmt.Fprintln(w, "Checks: none (no -database-url).")
	case len(findings) == 0:
		n, a := lt.counts()
		fmt.Fprintf(w, "Checks: %d opportunities registered once each, %d approved once each in the read model and its history, one CRM record each: none failed.\n", n, a)
	default:
		failed = true
		fmt.Fprintf(w, "Checks: %d failed.\n", len(findings))
		for _, f := range findings {
			fmt.Fprintf(w, "- %s\n", f)
		}
	}
	return failed
}

func (lt *loadtest) counts() (registered, approved int) {
	lt.mu.Lock()
	defer lt.mu.Unlock()
	for _, o := range lt.opps {
		if o.approved {
			approved++
		}
	}
	return len(lt.opps), approved
}

func ms(v float64) string { return fmt.Sprintf("%.1f ms", v) }

func writeTable(w io.Writer, rs []*Result) {
	fmt.Fprintln(w, "| call | calls | p50 | p95 | p99 | max | /s | errors | engine alone | ratio |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
	for _, r := range rs {
		ratio := ""
		if r.RatioOf != "" {
			ratio = fmt.Sprintf("%.2f× (%s)", r.Ratio, r.RatioOf)
		}
		fmt.Fprintf(w, "| %s | %d | %s | %s | %s | %s | %.1f | %d | %s | %s |\n",
			r.Call, r.Calls, ms(r.P50), ms(r.P95), ms(r.P99), ms(r.Max), r.PerSec, r.Errors, r.Engine, ratio)
	}
	fmt.Fprintln(w)
	fmt.Fprintln(w, "ratio: with 1 client, the call's p50 over the engine's (1.00× = as fast, 2.00× = twice as slow); with more clients, its throughput over the engine's (1.00× = as many a second).")
}

// writeScale prints the scale-out: each write on 1 pair, then on more.
func writeScale(w io.Writer, rs []*Result) {
	fmt.Fprintln(w, "Scale-out (one Temporal, one PostgreSQL, one CRM stand-in):")
	fmt.Fprintln(w)
	fmt.Fprintln(w, "| call | api+worker pairs | calls | p50 | p95 | p99 | /s | errors | /s vs 1 pair |")
	fmt.Fprintln(w, "|---|---:|---:|---:|---:|---:|---:|---:|---:|")
	one := map[string]float64{}
	for _, r := range rs {
		vs := ""
		if r.Replicas == 1 {
			one[r.Kind] = r.PerSec
		} else if b := one[r.Kind]; b > 0 {
			vs = fmt.Sprintf("%.2f×", r.PerSec/b)
		}
		fmt.Fprintf(w, "| %s | %d | %d | %s | %s | %s | %.1f | %d | %s |\n",
			r.Call, r.Replicas, r.Calls, ms(r.P50), ms(r.P95), ms(r.P99), r.PerSec, r.Errors, vs)
	}
}

func (lt *loadtest) writeJSON(findings []string) error {
	n, a := lt.counts()
	doc := map[string]any{
		"header": lt.header(), "results": lt.results, "warmup": lt.warm, "scale_out": lt.scale,
		"registered": n, "approved": a, "history": lt.history, "checked": lt.t.databaseURL != "", "findings": findings,
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	b = append(b, '\n')
	if lt.o.jsonPath == "-" {
		_, err = os.Stdout.Write(b)
		return err
	}
	return os.WriteFile(lt.o.jsonPath, b, 0o644)
}
