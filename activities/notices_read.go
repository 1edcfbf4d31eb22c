package activities

import (
	"context"
	"time"

	"oportuna/opportunity"
	"oportuna/store"
)

// A notice asks someone to act on a record ('Nova oportunidade aguardando
// análise', 'Renovação solicitada', 'Nova revenda aguardando análise'); once
// the record is decided nobody has anything left to do about it, so every
// notice of the record stored until then is marked read for everyone who got
// it (docs/web.md, "Notifications"). A notice's key starts with its record:
// '<opportunity id>/…' (workflows.opportunityWorkflow.notify) or
// 'resale/<id>/…' (workflows resale notices); migration 0012 indexes the
// unread ones by key.

// readNoticesOf marks read the unread notices whose key starts with prefix
// (store.ReadNoticesByKeyRange: the keys from prefix up to the next prefix).
func readNoticesOf(ctx context.Context, q *store.Queries, prefix string, at time.Time) error {
	upper := prefix[:len(prefix)-1] + string(rune(prefix[len(prefix)-1]+1))
	return q.ReadNoticesByKeyRange(ctx, store.ReadNoticesByKeyRangeParams{KeyFrom: prefix, KeyBefore: upper, At: at})
}

// opportunityNoticePrefix is the key prefix of an opportunity's notices.
func opportunityNoticePrefix(id string) string { return id + "/" }

// resaleNoticePrefix is the key prefix of a company's notices.
func resaleNoticePrefix(id string) string { return "resale/" + id + "/" }

// decides reports whether an event is a representative's decision: the
// opportunity leaves analysis or a renewal request, approved or disapproved.
func decides(ev opportunity.Event) bool {
	for _, c := range ev.Changes {
		if c.Attribute != "status" {
			continue
		}
		from, to := opportunity.Status(c.OldValue), opportunity.Status(c.NewValue)
		return (from == opportunity.Analysis || from == opportunity.Renovation) &&
			(to == opportunity.Approved || to == opportunity.Disapproved)
	}
	return false
}
