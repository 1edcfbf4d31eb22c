package api

import (
	"net/http"

	"github.com/xuri/excelize/v2"
)

// xlsxColumn is a column of a workbook's table: its pt-BR header and width.
type xlsxColumn struct {
	title string
	width float64
}

// xlsxHeaderStyle is the style of a table's header row: bold on grey.
func xlsxHeaderStyle(f *excelize.File) int {
	id, _ := f.NewStyle(&excelize.Style{Font: &excelize.Font{Bold: true},
		Fill: excelize.Fill{Type: "pattern", Pattern: 1, Color: []string{"DDE3EA"}}})
	return id
}

// xlsxNumFmt is a style of the number format code.
func xlsxNumFmt(f *excelize.File, code string) int {
	id, _ := f.NewStyle(&excelize.Style{CustomNumFmt: &code})
	return id
}

// startXLSXTable begins a streamed table: the columns' widths, the header
// row frozen above the rest, its titles in the header style.
func startXLSXTable(sw *excelize.StreamWriter, header int, cols []xlsxColumn, opts ...excelize.RowOpts) error {
	for i, col := range cols {
		if err := sw.SetColWidth(i+1, i+1, col.width); err != nil {
			return err
		}
	}
	if err := sw.SetPanes(&excelize.Panes{Freeze: true, YSplit: 1, TopLeftCell: "A2", ActivePane: "bottomLeft"}); err != nil {
		return err
	}
	titles := make([]any, len(cols))
	for i, col := range cols {
		titles[i] = excelize.Cell{StyleID: header, Value: col.title}
	}
	return sw.SetRow("A1", titles, opts...)
}

// sendXLSX answers a workbook as the attachment name.
func sendXLSX(w http.ResponseWriter, f *excelize.File, name string) {
	w.Header().Set("Content-Type", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")
	w.Header().Set("Content-Disposition", `attachment; filename="`+name+`"`)
	w.Header().Set("Cache-Control", "no-store")
	_, _ = f.WriteTo(w)
}
