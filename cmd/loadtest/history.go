package main

import (
	"context"
	"fmt"
	"sort"

	"go.temporal.io/sdk/client"

	"oportuna/workflows"
)

// historySize is what Temporal stores for the approved opportunities'
// workflows at the end of the run (DescribeWorkflowExecution on a sample):
// the figures of the sizing (docs/operations.md "Sizing").
type historySize struct {
	Sampled     int `json:"sampled"`
	EventsP50   int `json:"events_p50"`
	EventsMax   int `json:"events_max"`
	BytesP50    int `json:"bytes_p50"`
	BytesMax    int `json:"bytes_max"`
	Unavailable int `json:"unavailable,omitempty"`
}

func (lt *loadtest) historySizes(ctx context.Context, tc client.Client, sample int) *historySize {
	lt.mu.Lock()
	var ids []string
	for _, o := range lt.opps {
		if o.approved && len(ids) < sample {
			ids = append(ids, o.id)
		}
	}
	lt.mu.Unlock()
	h := &historySize{}
	var events, bytes []int
	for _, id := range ids {
		d, err := tc.DescribeWorkflowExecution(ctx, workflows.OpportunityWorkflowID(id), "")
		if err != nil {
			h.Unavailable++
			continue
		}
		info := d.GetWorkflowExecutionInfo()
		events = append(events, int(info.GetHistoryLength()))
		bytes = append(bytes, int(info.GetHistorySizeBytes()))
	}
	h.Sampled = len(events)
	if h.Sampled == 0 {
		return h
	}
	sort.Ints(events)
	sort.Ints(bytes)
	h.EventsP50, h.EventsMax = events[(len(events)-1)/2], events[len(events)-1]
	h.BytesP50, h.BytesMax = bytes[(len(bytes)-1)/2], bytes[len(bytes)-1]
	return h
}

func (h *historySize) String() string {
	if h == nil || h.Sampled == 0 {
		return "Temporal history of an approved opportunity: not measured."
	}
	return fmt.Sprintf("Temporal history of an approved opportunity's workflow (%d sampled): p50 %d events, %.1f KiB; max %d events, %.1f KiB.",
		h.Sampled, h.EventsP50, float64(h.BytesP50)/1024, h.EventsMax, float64(h.BytesMax)/1024)
}
