package tracing

import (
	"github.com/exaring/otelpgx"
	"github.com/jackc/pgx/v5/pgxpool"
)

// ConfigurePool traces the statements of the pool built from cfg: a span per
// query, batch, copy, prepare, connection and acquire made under a traced
// context (a request, an activity), named by the call and the SQL operation
// ("query SELECT", "prepare WITH", "batch query UPDATE"), with
// the parameterized statement as db.query.text and never its arguments. Off,
// it leaves cfg as it is.
func (p *Provider) ConfigurePool(cfg *pgxpool.Config) {
	if !p.Enabled() {
		return
	}
	cfg.ConnConfig.Tracer = otelpgx.NewTracer(otelpgx.WithTracerProvider(p.tp), otelpgx.WithQuerySpanNamePrefix())
}
