package metrics

import (
	"context"
	"sync"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"oportuna/opportunity"
	"oportuna/store"
)

// Business collects the portal's gauges from the read model at scrape time:
//
//	oportuna_opportunities{brand,status}     opportunities by brand and status
//	oportuna_approvals_overdue{brand,kind}   decisions waiting in analysis for longer
//	                                         than APPROVAL_SLA: kind "opportunity"
//	                                         (registrations) and "resale" (reseller
//	                                         sign-ups); the workflows' ApprovalOverdue
//	                                         search attribute
//
// Every scrape within TTL reuses the last answer, so many scrapers (or API
// replicas) cost one set of queries per TTL. Register it in one role only
// (the api): every replica reports the same global numbers, so aggregate them
// with max, not sum.
type Business struct {
	DB *pgxpool.Pool
	// Brands are reported with zeros when they have no opportunity (optional).
	Brands []string
	// SLA is APPROVAL_SLA.
	SLA time.Duration
	// TTL is how long an answer is reused (DefaultBusinessTTL when zero).
	TTL time.Duration
	// Timeout bounds the queries (5 s when zero).
	Timeout time.Duration

	mu      sync.Mutex
	at      time.Time
	byState map[[2]string]float64
	overdue map[[2]string]float64 // brand, kind
}

// Kinds of oportuna_approvals_overdue.
const (
	OverdueOpportunity = "opportunity"
	OverdueResale      = "resale"
)

// DefaultBusinessTTL is the reuse period of the business gauges.
const DefaultBusinessTTL = 30 * time.Second

var (
	opportunitiesDesc = prometheus.NewDesc("oportuna_opportunities",
		"Opportunities in the read model, by brand and status.", []string{"brand", "status"}, nil)
	overdueDesc = prometheus.NewDesc("oportuna_approvals_overdue",
		"Decisions waiting in analysis for longer than APPROVAL_SLA, by brand and kind (opportunity, resale: a reseller sign-up).",
		[]string{"brand", "kind"}, nil)
)

// NewBusiness returns the collector; brands may be nil.
func NewBusiness(db *pgxpool.Pool, brands []string, sla time.Duration) *Business {
	return &Business{DB: db, Brands: brands, SLA: sla}
}

func (b *Business) Describe(ch chan<- *prometheus.Desc) {
	ch <- opportunitiesDesc
	ch <- overdueDesc
}

func (b *Business) Collect(ch chan<- prometheus.Metric) {
	b.mu.Lock() // one query at a time; concurrent scrapes share its answer
	defer b.mu.Unlock()
	ttl := b.TTL
	if ttl <= 0 {
		ttl = DefaultBusinessTTL
	}
	if b.byState == nil || time.Since(b.at) >= ttl {
		if err := b.load(); err != nil {
			ch <- prometheus.NewInvalidMetric(opportunitiesDesc, err)
			ch <- prometheus.NewInvalidMetric(overdueDesc, err)
			return
		}
	}
	for k, v := range b.byState {
		ch <- prometheus.MustNewConstMetric(opportunitiesDesc, prometheus.GaugeValue, v, k[0], k[1])
	}
	for k, v := range b.overdue {
		ch <- prometheus.MustNewConstMetric(overdueDesc, prometheus.GaugeValue, v, k[0], k[1])
	}
}

func (b *Business) load() error {
	timeout := b.Timeout
	if timeout <= 0 {
		timeout = 5 * time.Second
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	byState := map[[2]string]float64{}
	overdue := map[[2]string]float64{}
	known := func(brand string) {
		for _, kind := range []string{OverdueOpportunity, OverdueResale} {
			if _, ok := overdue[[2]string{brand, kind}]; !ok {
				overdue[[2]string{brand, kind}] = 0
			}
		}
	}
	for _, brand := range b.Brands {
		for _, st := range opportunity.Statuses {
			byState[[2]string{brand, string(st)}] = 0
		}
		known(brand)
	}
	q := store.New(b.DB)
	counts, err := q.OpportunitiesByStatus(ctx)
	if err != nil {
		return err
	}
	for _, c := range counts {
		byState[[2]string{c.Brand, c.Status}] = float64(c.N)
		known(c.Brand)
	}
	// Both workflows remind the representatives APPROVAL_SLA after the
	// registration (or sign-up) and set ApprovalOverdue then.
	late, err := q.OverdueInAnalysis(ctx, store.OverdueInAnalysisParams{SlaSeconds: b.SLA.Seconds(),
		OpportunityKind: OverdueOpportunity, ResaleKind: OverdueResale})
	if err != nil {
		return err
	}
	for _, c := range late {
		known(c.Brand)
		overdue[[2]string{c.Brand, c.Kind}] = float64(c.N)
	}
	b.byState, b.overdue, b.at = byState, overdue, time.Now()
	return nil
}
