package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/xuri/excelize/v2"

	"oportuna/cnpj"
	"oportuna/internal/calendar"
	"oportuna/internal/respond"
	"oportuna/opportunity"
)

// handleReportsExport answers GET /api/reports/export?from=&to=: every table of
// the report as an .xlsx, one sheet per table, each with its header, an
// autofilter, dates as dates and numbers as numbers.
func (s *Server) handleReportsExport(w http.ResponseWriter, r *http.Request) {
	rep, ok := s.requestedReport(w, r)
	if !ok {
		return
	}
	f, err := reportWorkbook(rep)
	if err != nil {
		respond.Internal(w, r, err)
		return
	}
	defer f.Close()
	sendXLSX(w, f, fmt.Sprintf("Relatorios-%s-a-%s.xlsx", rep.Period.From, rep.Period.To))
}

// The sheets of the report's workbook, in order.
const (
	sheetSummary   = "Resumo"
	sheetMonths    = "Tempo por mês"
	sheetReps      = "Representantes"
	sheetResales   = "Revendas"
	sheetByStatus  = "Pipeline por status"
	sheetByState   = "Pipeline por UF"
	sheetByProduct = "Pipeline por produto"
	sheetExpiring  = "Vencendo"
)

// cellStyles are the workbook's number formats.
type cellStyles struct{ header, date, month, money, percent, hours int }

func newCellStyles(f *excelize.File) cellStyles {
	header := xlsxHeaderStyle(f)
	return cellStyles{header: header, date: xlsxNumFmt(f, "dd/mm/yyyy"), month: xlsxNumFmt(f, "mm/yyyy"),
		money: xlsxNumFmt(f, `"R$" #,##0.00`), percent: xlsxNumFmt(f, "0.0%"), hours: xlsxNumFmt(f, "0.0")}
}

// reportWorkbook writes the report's tables, one sheet each.
func reportWorkbook(rep *report) (*excelize.File, error) {
	f := excelize.NewFile()
	st := newCellStyles(f)
	money := func(n json.Number) any {
		v, err := strconv.ParseFloat(string(n), 64)
		if err != nil {
			return nil
		}
		return excelize.Cell{StyleID: st.money, Value: v}
	}
	num := func(v *float64, style int) any {
		if v == nil {
			return nil
		}
		return excelize.Cell{StyleID: style, Value: *v}
	}
	d := rep.Decisions
	sheets := []struct {
		name string
		cols []xlsxColumn
		rows [][]any
	}{
		{name: sheetSummary, cols: []xlsxColumn{{"Indicador", 44}, {"Valor", 18}}, rows: [][]any{
			{"Período: de", excelize.Cell{StyleID: st.date, Value: calendarDay(rep.Period.From)}},
			{"Período: até", excelize.Cell{StyleID: st.date, Value: calendarDay(rep.Period.To)}},
			{"Decisões", d.Count},
			{"Aprovadas", d.Approved},
			{"Taxa de aprovação", num(d.ApprovalRate, st.percent)},
			{"Tempo até a decisão: mediana (horas)", num(d.P50Hours, st.hours)},
			{"Tempo até a decisão: p90 (horas)", num(d.P90Hours, st.hours)},
			{fmt.Sprintf("Decididas dentro do SLA (%g h)", d.SlaHours), num(d.WithinSla, st.percent)},
			{"Pipeline: oportunidades abertas", rep.Pipeline.Count},
			{"Pipeline: valor estimado", money(rep.Pipeline.Total)},
		}},
		{name: sheetMonths, cols: []xlsxColumn{{"Mês", 12}, {"Decisões", 12}, {"Mediana (horas)", 16}, {"p90 (horas)", 14}}},
		{name: sheetReps, cols: []xlsxColumn{{"Representante", 32}, {"Decisões", 12}, {"Aprovadas", 12},
			{"Taxa de aprovação", 18}, {"Mediana (horas)", 16}}},
		{name: sheetResales, cols: []xlsxColumn{{"Revenda", 34}, {"CNPJ", 20}, {"Registradas", 13}, {"Aprovadas", 12}, {"Decididas", 12},
			{"Taxa de aprovação", 18}, {"Pipeline", 18}}},
		{name: sheetByStatus, cols: []xlsxColumn{{"Status", 24}, {"Oportunidades", 15}, {"Valor estimado", 18}}},
		{name: sheetByState, cols: []xlsxColumn{{"UF", 16}, {"Oportunidades", 15}, {"Valor estimado", 18}}},
		{name: sheetByProduct, cols: []xlsxColumn{{"Part number", 18}, {"Produto", 36}, {"Oportunidades", 15}, {"Valor estimado", 18}}},
		{name: sheetExpiring, cols: []xlsxColumn{{"Oportunidade", 32}, {"Razão social", 32}, {"UF", 6}, {"Status", 14}, {"Revenda", 30},
			{"Válida até", 13}, {"Dias restantes", 15}, {"Valor estimado", 18}}},
	}
	for _, m := range d.ByMonth {
		month, _ := time.Parse("2006-01", m.Month)
		sheets[1].rows = append(sheets[1].rows, []any{excelize.Cell{StyleID: st.month, Value: month}, m.Count,
			num(m.P50Hours, st.hours), num(m.P90Hours, st.hours)})
	}
	for _, r := range rep.ByRepresentative {
		sheets[2].rows = append(sheets[2].rows, []any{r.Name, r.Decided, r.Approved, num(r.ApprovalRate, st.percent), num(r.P50Hours, st.hours)})
	}
	for _, r := range rep.ByResale {
		sheets[3].rows = append(sheets[3].rows, []any{r.Name, cnpj.Format(r.CNPJ), r.Registered, r.Approved, r.Decided,
			num(r.ApprovalRate, st.percent), money(r.Pipeline)})
	}
	for _, r := range rep.Pipeline.ByStatus {
		sheets[4].rows = append(sheets[4].rows, []any{r.Label, r.Count, money(r.Value)})
	}
	for _, r := range rep.Pipeline.ByState {
		sheets[5].rows = append(sheets[5].rows, []any{r.Label, r.Count, money(r.Value)})
	}
	for _, r := range rep.Pipeline.ByProduct {
		sheets[6].rows = append(sheets[6].rows, []any{r.PartNumber, r.Description, r.Count, money(r.Value)})
	}
	for _, r := range rep.ExpiringSoon {
		sheets[7].rows = append(sheets[7].rows, []any{r.Name, r.CorporateName, r.State, opportunity.Status(r.Status).Label(), r.Resale,
			excelize.Cell{StyleID: st.date, Value: calendar.Date(r.ValidUntil)}, r.DaysLeft, money(r.Estimated)})
	}
	for i, sh := range sheets {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", sh.name); err != nil {
				f.Close()
				return nil, err
			}
		} else if _, err := f.NewSheet(sh.name); err != nil {
			f.Close()
			return nil, err
		}
		if err := writeReportSheet(f, st, sh.name, sh.cols, sh.rows); err != nil {
			f.Close()
			return nil, fmt.Errorf("reports export: %s: %w", sh.name, err)
		}
	}
	return f, nil
}

// calendarDay is a yyyy-mm-dd day as a spreadsheet date.
func calendarDay(s string) time.Time {
	d, _ := time.Parse(time.DateOnly, s)
	return d
}

// writeReportSheet writes a table: bold header, frozen, widths, autofilter.
func writeReportSheet(f *excelize.File, st cellStyles, sheet string, cols []xlsxColumn, rows [][]any) error {
	sw, err := f.NewStreamWriter(sheet)
	if err != nil {
		return err
	}
	if err := startXLSXTable(sw, st.header, cols); err != nil {
		return err
	}
	for i, row := range rows {
		if err := sw.SetRow("A"+strconv.Itoa(i+2), row); err != nil {
			return err
		}
	}
	if err := sw.Flush(); err != nil {
		return err
	}
	last, _ := excelize.CoordinatesToCellName(len(cols), max(len(rows)+1, 1))
	return f.AutoFilter(sheet, "A1:"+last, nil)
}
