package metrics

import (
	"context"
	"time"

	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/prometheus/client_golang/prometheus"

	"oportuna/store"
)

// ReconciliationFindings counts the reconciler's findings as it records them
// (reconcile/): a divergence found for the first time, and each repair. An
// open finding seen again by a later run is not counted again.
//
//	oportuna_reconciliation_findings_total{kind,repaired}
var ReconciliationFindings = prometheus.NewCounterVec(prometheus.CounterOpts{
	Name: "oportuna_reconciliation_findings_total",
	Help: "Divergences the reconciliation found between the read model, the workflows and the CRM, by kind and whether it repaired them.",
}, []string{"kind", "repaired"})

var (
	openFindingsDesc = prometheus.NewDesc("oportuna_reconciliation_findings_open",
		"Findings of the reconciliation an operator must look at (reconciliation_findings with no resolved_at), by kind.", []string{"kind"}, nil)
	openFailuresDesc = prometheus.NewDesc("oportuna_crm_sync_failures_open",
		"Background CRM syncs that failed and are not resolved yet (crm_sync_failures with no resolved_at).", nil, nil)
)

// FindingKinds are the kinds of reconciliation findings, reported with zeros
// when none is open.
var FindingKinds = []string{"read_model", "workflow_missing", "crm_missing", "crm_mismatch", "crm_ahead", "crm_sync_failure", "resale_status"}

// Reconciliation exposes ReconciliationFindings and, read from PostgreSQL at
// scrape time, the open findings and CRM sync failures. Register it where the
// reconciler runs (the worker).
type Reconciliation struct {
	DB *pgxpool.Pool
}

// NewReconciliation returns the collector.
func NewReconciliation(db *pgxpool.Pool) *Reconciliation { return &Reconciliation{DB: db} }

func (r *Reconciliation) Describe(ch chan<- *prometheus.Desc) {
	ReconciliationFindings.Describe(ch)
	ch <- openFindingsDesc
	ch <- openFailuresDesc
}

func (r *Reconciliation) Collect(ch chan<- prometheus.Metric) {
	ReconciliationFindings.Collect(ch)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	open := map[string]float64{}
	for _, k := range FindingKinds {
		open[k] = 0
	}
	q := store.New(r.DB)
	counts, err := q.OpenFindingsByKind(ctx)
	for _, c := range counts {
		open[c.Kind] = float64(c.N)
	}
	if err != nil {
		ch <- prometheus.NewInvalidMetric(openFindingsDesc, err)
		return
	}
	for k, v := range open {
		ch <- prometheus.MustNewConstMetric(openFindingsDesc, prometheus.GaugeValue, v, k)
	}
	failures, err := q.OpenCRMSyncFailureCount(ctx)
	if err != nil {
		ch <- prometheus.NewInvalidMetric(openFailuresDesc, err)
		return
	}
	ch <- prometheus.MustNewConstMetric(openFailuresDesc, prometheus.GaugeValue, float64(failures))
}
