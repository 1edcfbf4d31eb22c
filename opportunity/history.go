package opportunity

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/jackc/pgx/v5"

	"oportuna/store"
)

// SystemName is the history's user of a change nobody made (a timer, a repair).
const SystemName = "Sistema"

// History is one row of a record's change history: an opportunity's, a
// reseller company's or a user's.
type History struct {
	Key    string // idempotency key (history.event_key); empty: none
	Type   string // opportunity, resale or user
	TypeID string
	Brand  string
	Actor  *Actor // nil: Username alone (e.g. the contact of a sign-up), or the system
	// Username names who acted when there is no Actor (SystemName when empty).
	Username string
	Action   string // create or update
	Changes  []Change
	At       time.Time // zero: the database's clock
}

// Row is the history row as the store writes it: the changes as JSON (an
// empty list for none), the actor's id and name, or the user name alone.
func (h History) Row() store.InsertHistoryParams {
	changes := h.Changes
	if changes == nil {
		changes = []Change{}
	}
	mods, _ := json.Marshal(changes)
	p := store.InsertHistoryParams{EventKey: store.NilIfEmpty(h.Key), Type: h.Type, TypeID: h.TypeID, Brand: h.Brand,
		Username: h.Username, ActionType: h.Action, Modifications: mods}
	if h.Actor != nil {
		p.UserID, p.Username = &h.Actor.UserID, h.Actor.Name
	}
	if p.Username == "" {
		p.Username = SystemName
	}
	if !h.At.IsZero() {
		p.CreatedAt = &h.At
	}
	return p
}

// Record writes the history row, once per key: a key already recorded
// writes nothing.
func (h History) Record(ctx context.Context, q *store.Queries) error {
	_, err := q.InsertHistory(ctx, h.Row())
	if errors.Is(err, pgx.ErrNoRows) {
		return nil // the key's row is there already (a retry)
	}
	return err
}
