package metrics

import (
	"math"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"go.temporal.io/sdk/client"
)

// TemporalHandler is the Temporal SDK's metrics handler backed by this registry:
// pass it as client.Options.MetricsHandler and the SDK's client and worker
// metrics (temporal_request, temporal_workflow_task_execution_latency,
// temporal_activity_execution_failed, temporal_worker_task_slots_available, …)
// appear on /metrics with the SDK's tags (namespace, task_queue, workflow_type,
// activity_type, operation, …) as labels.
//
// Names: a counter X is exposed as X_total, a timer X as the histogram
// X_seconds, a gauge X as X; characters Prometheus refuses become '_'.
func (r *Registry) TemporalHandler() client.MetricsHandler {
	return sdkHandler{c: r.sdk}
}

// TimerBuckets are the histogram buckets (seconds) of the SDK's timers: from a
// millisecond (local activities, polls) to an hour (schedule-to-start backlog).
var TimerBuckets = []float64{.001, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600}

type kind int

const (
	counterKind kind = iota
	gaugeKind
	timerKind
)

// sdkCollector keeps the SDK's series and exposes them at scrape time. The SDK
// uses one metric name with different tag sets (e.g. temporal_request with or
// without task_queue), which a prometheus *Vec refuses; here a family's labels
// are the union of the tags seen, a missing one exposed as "" (which Prometheus
// treats as absent).
type sdkCollector struct {
	mu       sync.RWMutex
	families map[string]*family
}

type family struct {
	name   string
	kind   kind
	help   string
	labels map[string]bool
	series map[string]*series
}

type series struct {
	labels map[string]string

	count atomic.Int64  // counter
	bits  atomic.Uint64 // gauge value (math.Float64bits)

	mu      sync.Mutex // timer
	n       uint64
	sum     float64
	buckets []uint64 // per bucket, not cumulative
}

func newSDKCollector() *sdkCollector {
	return &sdkCollector{families: map[string]*family{}}
}

// Describe sends nothing: the collector is unchecked, its label sets grow.
func (c *sdkCollector) Describe(chan<- *prometheus.Desc) {}

func (c *sdkCollector) Collect(ch chan<- prometheus.Metric) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	for _, f := range c.families {
		names := make([]string, 0, len(f.labels))
		for n := range f.labels {
			names = append(names, n)
		}
		sort.Strings(names)
		desc := prometheus.NewDesc(f.name, f.help, names, nil)
		for _, s := range f.series {
			values := make([]string, len(names))
			for i, n := range names {
				values[i] = s.labels[n]
			}
			var m prometheus.Metric
			var err error
			switch f.kind {
			case counterKind:
				m, err = prometheus.NewConstMetric(desc, prometheus.CounterValue, float64(s.count.Load()), values...)
			case gaugeKind:
				m, err = prometheus.NewConstMetric(desc, prometheus.GaugeValue, math.Float64frombits(s.bits.Load()), values...)
			case timerKind:
				s.mu.Lock()
				cum := make(map[float64]uint64, len(TimerBuckets))
				var acc uint64
				for i, b := range TimerBuckets {
					acc += s.buckets[i]
					cum[b] = acc
				}
				n, sum := s.n, s.sum
				s.mu.Unlock()
				m, err = prometheus.NewConstHistogram(desc, n, sum, cum, values...)
			}
			if err != nil {
				m = prometheus.NewInvalidMetric(desc, err)
			}
			ch <- m
		}
	}
}

// get returns the series of name and tags, creating it (and its family) once.
func (c *sdkCollector) get(name string, k kind, tags map[string]string) *series {
	name = exposedName(name, k)
	labels := make(map[string]string, len(tags))
	for key, v := range tags {
		labels[labelName(key)] = v
	}
	key := seriesKey(labels)
	c.mu.RLock()
	f := c.families[name]
	var s *series
	if f != nil {
		s = f.series[key]
	}
	c.mu.RUnlock()
	if s != nil {
		return s
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if f = c.families[name]; f == nil {
		f = &family{name: name, kind: k, labels: map[string]bool{}, series: map[string]*series{},
			help: "Temporal Go SDK metric " + name + "."}
		c.families[name] = f
	}
	if s = f.series[key]; s == nil {
		s = &series{labels: labels}
		if k == timerKind {
			s.buckets = make([]uint64, len(TimerBuckets))
		}
		f.series[key] = s
		for n := range labels {
			f.labels[n] = true
		}
	}
	return s
}

func seriesKey(labels map[string]string) string {
	keys := make([]string, 0, len(labels))
	for k := range labels {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(labels[k])
		b.WriteByte(0)
	}
	return b.String()
}

// exposedName sanitises name for Prometheus and adds the unit suffix of its kind.
func exposedName(name string, k kind) string {
	name = sanitize(name)
	switch k {
	case counterKind:
		if !strings.HasSuffix(name, "_total") {
			name += "_total"
		}
	case timerKind:
		if !strings.HasSuffix(name, "_seconds") {
			name += "_seconds"
		}
	}
	return name
}

// labelName sanitises a tag key; names Prometheus reserves get a prefix.
func labelName(key string) string {
	n := strings.ReplaceAll(sanitize(key), ":", "_")
	if strings.HasPrefix(n, "__") || n == "le" || n == "quantile" {
		n = "tag_" + strings.TrimLeft(n, "_")
	}
	return n
}

// sanitize keeps [a-zA-Z0-9_:], turns anything else into '_' and never starts
// with a digit.
func sanitize(s string) string {
	if s == "" {
		return "_"
	}
	b := []byte(s)
	for i, c := range b {
		ok := c == '_' || c == ':' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9' && i > 0)
		if !ok {
			if c >= '0' && c <= '9' {
				return sanitize("_" + s)
			}
			b[i] = '_'
		}
	}
	return string(b)
}

// sdkHandler implements client.MetricsHandler.
type sdkHandler struct {
	c    *sdkCollector
	tags map[string]string
}

func (h sdkHandler) WithTags(tags map[string]string) client.MetricsHandler {
	merged := make(map[string]string, len(h.tags)+len(tags))
	for k, v := range h.tags {
		merged[k] = v
	}
	for k, v := range tags {
		merged[k] = v
	}
	return sdkHandler{c: h.c, tags: merged}
}

func (h sdkHandler) Counter(name string) client.MetricsCounter {
	return sdkCounter{h.c.get(name, counterKind, h.tags)}
}

func (h sdkHandler) Gauge(name string) client.MetricsGauge {
	return sdkGauge{h.c.get(name, gaugeKind, h.tags)}
}

func (h sdkHandler) Timer(name string) client.MetricsTimer {
	return sdkTimer{h.c.get(name, timerKind, h.tags)}
}

type sdkCounter struct{ s *series }

func (c sdkCounter) Inc(d int64) {
	if d > 0 { // a Prometheus counter never goes down
		c.s.count.Add(d)
	}
}

type sdkGauge struct{ s *series }

func (g sdkGauge) Update(v float64) { g.s.bits.Store(math.Float64bits(v)) }

type sdkTimer struct{ s *series }

func (t sdkTimer) Record(d time.Duration) {
	v := d.Seconds()
	i := sort.SearchFloat64s(TimerBuckets, v) // first bucket with bound >= v
	t.s.mu.Lock()
	t.s.n++
	t.s.sum += v
	if i < len(TimerBuckets) {
		t.s.buckets[i]++
	}
	t.s.mu.Unlock()
}
