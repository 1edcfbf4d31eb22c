package api

import (
	"context"
	"encoding/json"
	"math"
	"net/http"
	"strings"
	"time"

	"oportuna/auth"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
)

// The reports (GET /api/reports, docs/deal-desk.md "Reports"): how the
// programme did in a period of Brasília's calendar days, for the
// representative and support of the caller's brand.

const (
	// maxReportDays is the longest period a report reads (from and to included).
	maxReportDays = 366
	// expiringDays is the horizon of expiringSoon: approved registrations whose
	// validity ends within this many days from now.
	expiringDays = 30
	// maxExpiring and maxProducts bound the lists.
	maxExpiring = 100
	maxProducts = 20
	// defaultApprovalSLA is APPROVAL_SLA's default (config.Load).
	defaultApprovalSLA = 48 * time.Hour
)

// Bad input of a report (400).
const (
	MsgReportPeriodRequired = "Informe o período: data inicial (from) e data final (to) no formato AAAA-MM-DD."
	MsgReportDateInvalid    = "Data inválida: use o formato AAAA-MM-DD (por exemplo, 2026-11-30)."
	MsgReportPeriodOrder    = "A data inicial deve ser igual ou anterior à data final."
	MsgReportPeriodTooLong  = "O período pode ter no máximo 366 dias."
)

// reportPeriod is a report's days: from 00:00 of From to the end of To in
// Brasília, the instants [Since, Until).
type reportPeriod struct {
	From, To     time.Time // days (midnight UTC, calendar.Date's form)
	Since, Until time.Time
}

// parseReportPeriod reads ?from=&to= (yyyy-mm-dd, both required) or answers
// the pt-BR message of what is wrong.
func parseReportPeriod(r *http.Request) (reportPeriod, string) {
	q := r.URL.Query()
	fromS, toS := strings.TrimSpace(q.Get("from")), strings.TrimSpace(q.Get("to"))
	if fromS == "" || toS == "" {
		return reportPeriod{}, MsgReportPeriodRequired
	}
	from, err1 := time.Parse(time.DateOnly, fromS)
	to, err2 := time.Parse(time.DateOnly, toS)
	if err1 != nil || err2 != nil {
		return reportPeriod{}, MsgReportDateInvalid
	}
	if from.After(to) {
		return reportPeriod{}, MsgReportPeriodOrder
	}
	if to.Sub(from) >= maxReportDays*24*time.Hour {
		return reportPeriod{}, MsgReportPeriodTooLong
	}
	return reportPeriod{From: from, To: to, Since: calendar.Start(from), Until: calendar.Start(to.AddDate(0, 0, 1))}, ""
}

// report is the answer of GET /api/reports.
type report struct {
	Period struct {
		From string `json:"from"`
		To   string `json:"to"`
	} `json:"period"`
	Decisions        reportDecisions `json:"decisions"`
	ByRepresentative []repFigures    `json:"byRepresentative"`
	ByResale         []resaleFigures `json:"byResale"`
	Pipeline         reportPipeline  `json:"pipeline"`
	ExpiringSoon     []expiringRow   `json:"expiringSoon"`
	ExpiringDays     int             `json:"expiringDays"`
}

type reportDecisions struct {
	Count    int      `json:"count"`
	Approved int      `json:"approved"`
	P50Hours *float64 `json:"p50Hours"`
	P90Hours *float64 `json:"p90Hours"`
	// WithinSla is the share (0–1) of the decisions taken within SlaHours of
	// the registration; WithinSlaCount their number.
	WithinSla      *float64     `json:"withinSla"`
	WithinSlaCount int          `json:"withinSlaCount"`
	SlaHours       float64      `json:"slaHours"`
	ApprovalRate   *float64     `json:"approvalRate"`
	ByMonth        []monthTimes `json:"byMonth"`
}

type monthTimes struct {
	Month    string   `json:"month"` // yyyy-mm
	Label    string   `json:"label"` // Set/2026
	Count    int      `json:"count"`
	P50Hours *float64 `json:"p50Hours"`
	P90Hours *float64 `json:"p90Hours"`
}

type repFigures struct {
	ID           string   `json:"id"`
	Name         string   `json:"name"`
	Decided      int      `json:"decided"`
	Approved     int      `json:"approved"`
	P50Hours     *float64 `json:"p50Hours"`
	ApprovalRate *float64 `json:"approvalRate"`
}

type resaleFigures struct {
	ID           string      `json:"id"`
	CNPJ         string      `json:"cnpj"`
	Name         string      `json:"name"`
	Registered   int         `json:"registered"`
	Approved     int         `json:"approved"`
	Decided      int         `json:"decided"`
	ApprovalRate *float64    `json:"approvalRate"`
	Pipeline     json.Number `json:"pipeline"`
}

type reportPipeline struct {
	Count     int            `json:"count"`
	Total     json.Number    `json:"total"`
	ByStatus  []pipelineRow  `json:"byStatus"`
	ByState   []pipelineRow  `json:"byState"`
	ByProduct []productValue `json:"byProduct"`
}

type pipelineRow struct {
	Key   string      `json:"key"` // the status or the UF
	Label string      `json:"label"`
	Count int         `json:"count"`
	Value json.Number `json:"value"`
}

type productValue struct {
	PartNumber  string      `json:"partNumber"`
	Description string      `json:"description"`
	Count       int         `json:"count"`
	Value       json.Number `json:"value"`
}

type expiringRow struct {
	ID            string      `json:"id"`
	Name          string      `json:"name"`
	CorporateName string      `json:"corporateName"`
	State         string      `json:"state"`
	Status        string      `json:"status"`
	Resale        string      `json:"resale"`
	ValidUntil    time.Time   `json:"validUntil"`
	DaysLeft      int         `json:"daysLeft"`
	Estimated     json.Number `json:"estimated"`
}

// approvalSLA is APPROVAL_SLA as the worker reads it (Server.ApprovalSLA).
func (s *Server) approvalSLA() time.Duration {
	if s.ApprovalSLA > 0 {
		return s.ApprovalSLA
	}
	return defaultApprovalSLA
}

// handleReports answers GET /api/reports?from=&to=.
func (s *Server) handleReports(w http.ResponseWriter, r *http.Request) {
	if rep, ok := s.requestedReport(w, r); ok {
		respond.JSON(w, http.StatusOK, map[string]any{"data": rep})
	}
}

// requestedReport builds the report of the request's period for the caller's
// brand, or answers 400 (a bad period) or 500 and false.
func (s *Server) requestedReport(w http.ResponseWriter, r *http.Request) (*report, bool) {
	p, msg := parseReportPeriod(r)
	if msg != "" {
		respond.Error(w, http.StatusBadRequest, msg)
		return nil, false
	}
	rep, err := s.buildReport(r.Context(), auth.FromContext(r.Context()).Brand, p)
	if err != nil {
		respond.Internal(w, r, err)
		return nil, false
	}
	return rep, true
}

// hours rounds a duration in hours to a tenth.
func hours(h float64) *float64 {
	v := math.Round(h*10) / 10
	return &v
}

// rate is part/whole, rounded to 0.1 %; nil when whole is 0.
func rate(part, whole int) *float64 {
	if whole == 0 {
		return nil
	}
	v := math.Round(float64(part)/float64(whole)*1000) / 1000
	return &v
}

// monthLabel is "Set/2026" for 2026-09.
func monthLabel(t time.Time) string {
	return monthLabels[t.Month()-1] + "/" + t.Format("2006")
}

// buildReport reads the figures of the brand's period, in one snapshot.
func (s *Server) buildReport(ctx context.Context, brand string, p reportPeriod) (*report, error) {
	var out *report
	err := store.ReportTx(ctx, s.DB, func(q *store.Queries) error {
		var err error
		out, err = s.readReport(ctx, q, brand, p)
		return err
	})
	return out, err
}

func (s *Server) readReport(ctx context.Context, q *store.Queries, brand string, p reportPeriod) (*report, error) {
	out := &report{ExpiringDays: expiringDays, ByRepresentative: []repFigures{}, ByResale: []resaleFigures{},
		ExpiringSoon: []expiringRow{}}
	out.Period.From, out.Period.To = p.From.Format(time.DateOnly), p.To.Format(time.DateOnly)

	sla := s.approvalSLA()
	dec, err := q.ReportDecisions(ctx, store.ReportDecisionsParams{Brand: brand, Since: p.Since, Until: p.Until,
		SlaHours: sla.Hours()})
	if err != nil {
		return nil, err
	}
	out.Decisions.SlaHours = sla.Hours()
	byMonth := map[string]store.ReportDecisionsRow{}
	for _, d := range dec {
		switch {
		case d.ByRepresentative:
			out.ByRepresentative = append(out.ByRepresentative, repFigures{ID: d.UserID, Name: d.Name, Decided: d.Decided,
				Approved: d.Approved, P50Hours: hours(d.P50Hours), ApprovalRate: rate(d.Approved, d.Decided)})
		case d.ByMonth:
			byMonth[d.Month] = d
		default:
			out.Decisions.Count, out.Decisions.Approved, out.Decisions.WithinSlaCount = d.Decided, d.Approved, d.WithinSla
			if d.Decided > 0 {
				out.Decisions.P50Hours, out.Decisions.P90Hours = hours(d.P50Hours), hours(d.P90Hours)
			}
			out.Decisions.WithinSla = rate(d.WithinSla, d.Decided)
			out.Decisions.ApprovalRate = rate(d.Approved, d.Decided)
		}
	}
	// Every month of the period, the ones with no decision too.
	for m := time.Date(p.From.Year(), p.From.Month(), 1, 0, 0, 0, 0, time.UTC); !m.After(p.To); m = m.AddDate(0, 1, 0) {
		key := m.Format("2006-01")
		mt := monthTimes{Month: key, Label: monthLabel(m)}
		if d, ok := byMonth[key]; ok {
			mt.Count, mt.P50Hours, mt.P90Hours = d.Decided, hours(d.P50Hours), hours(d.P90Hours)
		}
		out.Decisions.ByMonth = append(out.Decisions.ByMonth, mt)
	}

	resales, err := q.ReportByResale(ctx, store.ReportByResaleParams{Brand: brand, Since: p.Since, Until: p.Until})
	if err != nil {
		return nil, err
	}
	for _, r := range resales {
		name := r.CorporateName
		if strings.TrimSpace(r.FantasyName) != "" {
			name = r.FantasyName
		}
		out.ByResale = append(out.ByResale, resaleFigures{ID: r.ResaleID, CNPJ: r.Cnpj, Name: name, Registered: r.Registered,
			Approved: r.Approved, Decided: r.Decided, ApprovalRate: rate(r.Approved, r.Decided), Pipeline: json.Number(r.Pipeline)})
	}

	pipe, err := q.ReportPipeline(ctx, store.ReportPipelineParams{Brand: brand, Since: p.Since, Until: p.Until})
	if err != nil {
		return nil, err
	}
	out.Pipeline.ByStatus, out.Pipeline.ByState, out.Pipeline.ByProduct = []pipelineRow{}, []pipelineRow{}, []productValue{}
	var total opportunity.Money
	for _, row := range pipe {
		pr := pipelineRow{Key: row.Key, Label: row.Key, Count: row.N, Value: json.Number(row.Value)}
		if row.Kind == "status" {
			pr.Label = opportunity.Status(row.Key).Label()
			out.Pipeline.ByStatus = append(out.Pipeline.ByStatus, pr)
			out.Pipeline.Count += row.N
			if v, err := opportunity.ParseMoney(row.Value); err == nil {
				total += v
			}
			continue
		}
		if pr.Label == "" {
			pr.Label = "Não informado"
		}
		out.Pipeline.ByState = append(out.Pipeline.ByState, pr)
	}
	out.Pipeline.Total = json.Number(total.String())
	products, err := q.ReportPipelineByProduct(ctx, store.ReportPipelineByProductParams{Brand: brand, Since: p.Since,
		Until: p.Until, MaxRows: maxProducts})
	if err != nil {
		return nil, err
	}
	for _, row := range products {
		out.Pipeline.ByProduct = append(out.Pipeline.ByProduct, productValue{PartNumber: row.PartNumber,
			Description: strings.TrimSpace(row.Description), Count: row.N, Value: json.Number(row.Value)})
	}

	now := s.now()
	expiring, err := q.ReportExpiring(ctx, store.ReportExpiringParams{Brand: brand, Since: now,
		Until: now.Add(expiringDays * 24 * time.Hour), MaxRows: maxExpiring})
	if err != nil {
		return nil, err
	}
	today := calendar.Date(now)
	for _, e := range expiring {
		out.ExpiringSoon = append(out.ExpiringSoon, expiringRow{ID: e.ID, Name: e.Name, CorporateName: e.CorporateName,
			State: e.State, Status: e.Status, Resale: e.Resale, ValidUntil: e.ValidUntil,
			DaysLeft: int(calendar.Date(e.ValidUntil).Sub(today).Hours() / 24), Estimated: json.Number(e.Estimated)})
	}
	return out, nil
}
