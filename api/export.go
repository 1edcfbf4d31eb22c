package api

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"oportuna/auth"
	"oportuna/cnpj"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
	"oportuna/store"
)

// exportSheet is the spec's name of the Excel export ('Oportunidades').
const exportSheet = "Oportunidades"

// exportColumns are the export's pt-BR headers with their widths.
var exportColumns = []xlsxColumn{
	{"Data de cadastro", 14}, {"Nome da oportunidade", 36}, {"Status", 20}, {"CNPJ", 20},
	{"Nome fantasia", 28}, {"Razão social", 34}, {"Contato", 24}, {"E-mail", 30}, {"Telefone", 16},
	{"Estado", 8}, {"Cidade", 22}, {"Probabilidade de fechamento", 14}, {"Valor estimado", 18},
	{"Registro (CRM)", 18}, {"Vendedor", 24}, {"Revenda", 30}, {"Distribuidor", 22},
	{"Data de aprovação", 14}, {"Válida até", 14},
}

// probabilityLabels are the bands of the probability of closing (spec §3).
var probabilityLabels = map[int]string{25: "0% - 49%", 50: "50% - 70%", 75: "71% - 99%", 100: "100%"}

// exportProbability is the band of a probability, or 'N/C' for any other
// value, as the list shows it (spec §2).
func exportProbability(p int) string {
	if label, ok := probabilityLabels[p]; ok {
		return label
	}
	return "N/C"
}

// exportScope picks the list an export reads by the spec's priority (§6):
// RESALE its reseller's, SELLER its own, REPRESENTATIVE or SUPPORT all.
func exportScope(c *auth.Claims) (listScope, bool) {
	switch {
	case c.Has(auth.Resale):
		return listByResale, true
	case c.Has(auth.Seller):
		return listByUser, true
	case c.Has(auth.Representative, auth.Support):
		return listAll, true
	}
	return 0, false
}

// handleExportOpportunities answers GET /opportunity/export: every opportunity
// the caller's list shows with the same filters and sort, as an .xlsx written
// row by row (excelize's stream writer keeps memory flat).
func (s *Server) handleExportOpportunities(w http.ResponseWriter, r *http.Request) {
	c := auth.FromContext(r.Context())
	scope, ok := exportScope(c)
	if !ok {
		respond.Error(w, http.StatusForbidden, auth.MsgForbidden)
		return
	}
	filter, ok := s.opportunityQuery(w, r, c, scope)
	if !ok {
		return
	}
	distributor := ""
	if b, ok := s.Brands.BySlug(c.Brand); ok {
		distributor = b.Distributor
	}
	f, err := s.buildExport(r.Context(), filter, distributor)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	defer f.Close()
	sendXLSX(w, f, fmt.Sprintf("%s-%s.xlsx", exportSheet, calendar.ISO(s.now())))
}

// buildExport streams the query's rows into a workbook.
func (s *Server) buildExport(ctx context.Context, filter store.OpportunityFilter, distributor string) (*excelize.File, error) {
	f := excelize.NewFile()
	if err := f.SetSheetName("Sheet1", exportSheet); err != nil {
		f.Close()
		return nil, err
	}
	sw, err := f.NewStreamWriter(exportSheet)
	if err != nil {
		f.Close()
		return nil, err
	}
	fail := func(err error) (*excelize.File, error) {
		f.Close()
		return nil, fmt.Errorf("export: %w", err)
	}
	header := xlsxHeaderStyle(f)
	dateStyle := xlsxNumFmt(f, "dd/mm/yyyy")
	moneyStyle := xlsxNumFmt(f, `"R$" #,##0.00`)
	if err := startXLSXTable(sw, header, exportColumns, excelize.RowOpts{Height: 20}); err != nil {
		return fail(err)
	}
	dateCell := func(t *time.Time) any {
		if t == nil {
			return nil
		}
		return excelize.Cell{StyleID: dateStyle, Value: calendar.Date(*t)}
	}
	row := make([]any, len(exportColumns))
	n := 2
	err = store.New(s.DB).ExportOpportunities(ctx, filter, func(o store.ExportRow) error {
		row[0] = dateCell(&o.CreatedAt)
		row[1] = o.Name
		row[2] = opportunity.Status(o.Status).Label()
		row[3] = cnpj.Format(o.Cnpj)
		row[4], row[5], row[6], row[7] = o.FantasyName, o.CorporateName, o.Contact, o.Email
		row[8] = opportunity.FormatPhone(o.Phone)
		row[9], row[10] = o.State, o.City
		row[11] = exportProbability(o.ProbabilityClosing)
		row[12] = excelize.Cell{StyleID: moneyStyle, Value: o.Estimated}
		row[13], row[14], row[15], row[16] = o.Register, o.Seller, o.Resale, distributor
		row[17] = dateCell(o.ApproveDate)
		row[18] = dateCell(o.ValidUntil)
		err := sw.SetRow("A"+strconv.Itoa(n), row)
		n++
		return err
	})
	if err != nil {
		return fail(err)
	}
	last, _ := excelize.CoordinatesToCellName(len(exportColumns), max(n-1, 2))
	if err := sw.AddTable(&excelize.Table{Range: "A1:" + last, Name: exportSheet}); err != nil {
		return fail(err)
	}
	if err := sw.Flush(); err != nil {
		return fail(err)
	}
	return f, nil
}

// writeExport is buildExport for a writer (the benchmark's entry point).
func (s *Server) writeExport(ctx context.Context, w io.Writer, filter store.OpportunityFilter) error {
	f, err := s.buildExport(ctx, filter, "")
	if err != nil {
		return err
	}
	defer f.Close()
	_, err = f.WriteTo(w)
	return err
}
