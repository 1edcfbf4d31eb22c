package cnpj

import (
	"time"

	"github.com/jackc/pgx/v5/pgxpool"

	"oportuna/internal/ratelimit"
)

// The spec's limit: 3 lookups per minute per user.
const (
	Limit  = 3
	Window = time.Minute
)

// newLimiter is the lookup limit per caller, kept by internal/ratelimit in
// PostgreSQL so every API replica counts the same lookups.
func newLimiter(db *pgxpool.Pool) *ratelimit.Window {
	return &ratelimit.Window{DB: db, Name: "cnpj", Limit: Limit, Per: Window}
}
