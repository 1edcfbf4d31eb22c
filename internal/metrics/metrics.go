// Package metrics exposes the process's Prometheus metrics on /metrics:
//
//   - HTTP: http_requests_total{route,method,status} (status: the code) and
//     http_request_duration_seconds{route,method,status} (status: the class,
//     2xx…5xx, keeping the histogram's series few) by chi route pattern (Middleware);
//   - the Temporal SDK's client and worker metrics (TemporalHandler, passed as
//     client.Options.MetricsHandler): temporal_* counters (_total), gauges and
//     timers (histograms in seconds, _seconds);
//   - business gauges read from PostgreSQL at scrape time (Business):
//     oportuna_opportunities{brand,status} and oportuna_approvals_overdue{brand,kind};
//   - the Go runtime and process collectors, and oportuna_build_info{version}.
package metrics

import (
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"oportuna"
)

// Path is where Handler is served.
const Path = "/metrics"

// Registry is the process's metric registry.
type Registry struct {
	*prometheus.Registry
	requests *prometheus.CounterVec
	duration *prometheus.HistogramVec
	sdk      *sdkCollector
}

// New returns a registry with the HTTP, Temporal SDK, Go runtime and process
// metrics registered; add Business with MustRegister where wanted.
func New() *Registry {
	r := &Registry{
		Registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "http_requests_total",
			Help: "HTTP requests answered, by chi route pattern, method and status code.",
		}, []string{"route", "method", "status"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name:    "http_request_duration_seconds",
			Help:    "Time to answer an HTTP request, by chi route pattern, method and status class (2xx, 4xx, 5xx, …).",
			Buckets: []float64{.005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 90},
		}, []string{"route", "method", "status"}),
		sdk: newSDKCollector(),
	}
	build := prometheus.NewGauge(prometheus.GaugeOpts{
		Name:        "oportuna_build_info",
		Help:        "Always 1; the version label is the running build's.",
		ConstLabels: prometheus.Labels{"version": oportuna.Version()},
	})
	build.Set(1)
	r.MustRegister(r.requests, r.duration, r.sdk, build,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	return r
}

// OtherRoute labels requests no route matched (the web app's files and client
// routes, unknown paths): the raw path is never a label.
const OtherRoute = "other"

// Middleware records every request under its chi route pattern (e.g.
// "/api/opportunity/id/{id}"), read after the handler ran, when chi has matched
// it. Install it with Use on the root router, after middleware.RequestID and
// before the panic recoverer so a recovered panic counts as its 500.
func (r *Registry) Middleware(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		start := time.Now()
		ww := middleware.NewWrapResponseWriter(w, req.ProtoMajor)
		defer func() {
			v := recover() // a panic no recoverer caught (e.g. http.ErrAbortHandler): count it as a 500
			route := OtherRoute
			if rctx := chi.RouteContext(req.Context()); rctx != nil {
				if p := rctx.RoutePattern(); p != "" && p != "/*" {
					route = p
				}
			}
			status := ww.Status()
			switch {
			case v != nil:
				status = http.StatusInternalServerError
			case status == 0:
				status = http.StatusOK // nothing written: net/http answers 200
			}
			r.requests.WithLabelValues(route, req.Method, strconv.Itoa(status)).Inc()
			r.duration.WithLabelValues(route, req.Method, StatusClass(status)).Observe(time.Since(start).Seconds())
			if v != nil {
				panic(v)
			}
		}()
		next.ServeHTTP(ww, req)
	})
}

// StatusClass is the status label of the latency histogram: "2xx" for 200-299
// and so on; anything outside 100-599 is "other".
func StatusClass(code int) string {
	if code < 100 || code > 599 {
		return "other"
	}
	return strconv.Itoa(code/100) + "xx"
}

// Handler serves the metrics in the Prometheus text format. A failing collector
// (e.g. the business gauges while PostgreSQL is down) is logged and left out;
// the other series are still served.
func (r *Registry) Handler() http.Handler {
	return promhttp.HandlerFor(r.Registry, promhttp.HandlerOpts{
		ErrorHandling: promhttp.ContinueOnError,
		ErrorLog:      errorLog{},
		Registry:      r.Registry, // promhttp_metric_handler_errors_total
	})
}

type errorLog struct{}

func (errorLog) Println(v ...any) { slog.Warn("metrics: collecting", "err", v) }
