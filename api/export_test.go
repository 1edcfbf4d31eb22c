package api

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// download GETs a path and returns the status, the headers and the body.
func (s *session) download(path string) (int, http.Header, []byte) {
	s.st.t.Helper()
	res := s.send("GET", path, nil, nil)
	defer res.Body.Close()
	b, _ := io.ReadAll(res.Body)
	return res.StatusCode, res.Header, b
}

func readSheet(t *testing.T, b []byte) [][]string {
	t.Helper()
	f, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not an xlsx: %v", err)
	}
	defer f.Close()
	if got := f.GetSheetList(); len(got) != 1 || got[0] != "Oportunidades" {
		t.Fatalf("sheets %v", got)
	}
	rows, err := f.GetRows("Oportunidades")
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

func TestExportFollowsTheListFiltersAndTheCallersScope(t *testing.T) {
	st := newStack(t)
	seller := st.login("vendedor1@nordata.demo", "nordata")
	seller2 := st.login("vendedor2@nordata.demo", "nordata")
	rep := st.login("representante@nordata.demo", "nordata")
	var ids []string
	for _, c := range []struct {
		s   *session
		doc string
	}{{seller, "11222333000181"}, {seller, "11444777000161"}, {seller2, "11222333000181"}} {
		code, body := c.s.call("POST", "/api/opportunity/create", createBody(c.doc))
		if code != 200 {
			t.Fatalf("create: %d %v", code, body)
		}
		ids = append(ids, body["data"].(map[string]any)["id"].(string))
	}

	code, hdr, b := rep.download("/api/opportunity/export?cnpj=11.222.333")
	if code != 200 || !strings.Contains(hdr.Get("Content-Disposition"), "Oportunidades") ||
		hdr.Get("Content-Type") != "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" {
		t.Fatalf("export: %d %v", code, hdr)
	}
	rows := readSheet(t, b)
	if len(rows) != 3 || rows[0][0] != "Data de cadastro" || rows[0][12] != "Valor estimado" {
		t.Fatalf("want header + 2 rows, got %v", rows)
	}
	for _, r := range rows[1:] {
		if r[3] != "11.222.333/0001-81" || r[2] != "Em Análise" || r[11] != "0% - 49%" || !strings.HasPrefix(r[12], "R$") ||
			r[8] != "(11) 98765-4321" || len(r) > 17 && r[17] != "" {
			t.Fatalf("row %v", r)
		}
	}
	// The list with the same filter holds the same opportunities.
	_, list := rep.call("GET", "/api/opportunity/all?cnpj=11222333&amount=99999", nil)
	if total := list["total"].(float64); int(total) != len(rows)-1 {
		t.Fatalf("list total %v, export rows %d", total, len(rows)-1)
	}
	// Values are numbers and dates, not text.
	f, _ := excelize.OpenReader(bytes.NewReader(b))
	defer f.Close()
	if typ, _ := f.GetCellType("Oportunidades", "M2"); typ != excelize.CellTypeNumber && typ != excelize.CellTypeUnset {
		t.Fatalf("estimated cell type %v", typ)
	}
	if v, _ := f.GetCellValue("Oportunidades", "M2", excelize.Options{RawCellValue: true}); v == "" || strings.Contains(v, "R$") {
		t.Fatalf("estimated raw value %q", v)
	}

	// Cells read as the list shows them: a probability outside the four bands is
	// 'N/C', a 10-digit phone is (00) 0000-0000. The approval date is a date cell
	// whatever the status (an expired opportunity was approved once), empty where
	// there is none: never the list's text 'Sem Data' in a column of dates.
	ctx := context.Background()
	for _, q := range []struct {
		sql string
		id  string
	}{
		{`UPDATE opportunities SET probability_closing = 30, phone = '1140002000', status = 'expired',
			approve_date = '2026-03-04T15:00:00Z' WHERE id = $1`, ids[0]},
		{`UPDATE opportunities SET status = 'approved', approve_date = '2026-03-05T15:00:00Z' WHERE id = $1`, ids[2]},
	} {
		if _, err := st.db.Exec(ctx, q.sql, q.id); err != nil {
			t.Fatal(err)
		}
	}
	_, _, b = rep.download("/api/opportunity/export?cnpj=11222333")
	byStatus := map[string][]string{}
	for _, r := range readSheet(t, b)[1:] {
		byStatus[r[2]] = r
	}
	if r := byStatus["Expirado"]; len(r) < 18 || r[11] != "N/C" || r[8] != "(11) 4000-2000" || r[17] != "04/03/2026" {
		t.Fatalf("expired row %v", r)
	}
	if r := byStatus["Aprovado"]; len(r) < 18 || r[11] != "0% - 49%" || r[8] != "(11) 98765-4321" || r[17] != "05/03/2026" {
		t.Fatalf("approved row %v", r)
	}
	f2, err := excelize.OpenReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	defer f2.Close()
	rows = readSheet(t, b)
	for i, r := range rows[1:] {
		cell := fmt.Sprintf("R%d", i+2)
		raw, _ := f2.GetCellValue("Oportunidades", cell, excelize.Options{RawCellValue: true})
		switch r[2] {
		case "Em Análise":
			if raw != "" {
				t.Errorf("%s of an opportunity never approved: %q, want an empty cell", cell, raw)
			}
		default:
			// A date cell holds Excel's serial day number, shown dd/mm/yyyy.
			if _, err := strconv.ParseFloat(raw, 64); err != nil {
				t.Errorf("%s (%s): raw %q is not a date serial", cell, r[2], raw)
			}
			if style, _ := f2.GetCellStyle("Oportunidades", cell); style == 0 {
				t.Errorf("%s has no date format", cell)
			}
		}
	}
	// Every column can be filtered and sorted in Excel: a table with an
	// autofilter over the header and every row.
	tables, err := f2.GetTables("Oportunidades")
	if err != nil || len(tables) != 1 || tables[0].Range != fmt.Sprintf("A1:S%d", len(rows)) {
		t.Fatalf("tables %+v (%v), want one over A1:S%d", tables, err, len(rows))
	}

	// A seller exports only its own.
	_, _, b = seller2.download("/api/opportunity/export")
	if rows := readSheet(t, b); len(rows) != 2 {
		t.Fatalf("seller2 sees %d rows", len(rows)-1)
	}
	// Bad filters are a 400 with the list's message; no token is a 401.
	if code, _, b := rep.download("/api/opportunity/export?status=nope"); code != 400 || !strings.Contains(string(b), "Status inválido") {
		t.Fatalf("bad status: %d %s", code, b)
	}
	res, err := http.Get(st.srv.URL + "/api/opportunity/export")
	if err != nil || res.StatusCode != 401 {
		t.Fatalf("anonymous export: %v %v", err, res)
	}
	res.Body.Close()
}
