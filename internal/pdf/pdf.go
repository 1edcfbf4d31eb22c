// Package pdf writes small text documents as PDF (the privacy policy and the
// opportunity guidelines the portal shows in its PDF viewer).
package pdf

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/text/encoding/charmap"
)

// Paragraph is a block of text; headings are set larger and bold.
type Paragraph struct {
	Text    string
	Heading bool
}

const (
	pageW, pageH = 595, 842 // A4 in points
	margin       = 56
	bodySize     = 11
	headSize     = 14
	lineGap      = 1.45
	charsPerLine = 88
)

// Document lays the paragraphs out on as many A4 pages as they need.
func Document(title string, paras []Paragraph) []byte {
	type line struct {
		text string
		size int
		bold bool
	}
	var lines []line
	lines = append(lines, line{title, 18, true}, line{"", bodySize, false})
	for _, p := range paras {
		size, width := bodySize, charsPerLine
		if p.Heading {
			size, width = headSize, 64
		}
		for _, l := range wrap(p.Text, width) {
			lines = append(lines, line{l, size, p.Heading})
		}
		lines = append(lines, line{"", bodySize, false})
	}
	// Paginate.
	var pages [][]line
	var cur []line
	y := float64(pageH - margin)
	for _, l := range lines {
		h := float64(l.size) * lineGap
		if y-h < margin {
			pages = append(pages, cur)
			cur, y = nil, float64(pageH-margin)
		}
		cur = append(cur, l)
		y -= h
	}
	pages = append(pages, cur)

	var objs []string
	// 1 catalog, 2 pages, 3 regular font, 4 bold font, then content+page per page.
	objs = append(objs, "<< /Type /Catalog /Pages 2 0 R >>", "",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica-Bold /Encoding /WinAnsiEncoding >>")
	var kids []string
	for _, pg := range pages {
		var content bytes.Buffer
		y := float64(pageH - margin)
		for _, l := range pg {
			y -= float64(l.size) * lineGap
			if l.text == "" {
				continue
			}
			font := "F1"
			if l.bold {
				font = "F2"
			}
			fmt.Fprintf(&content, "BT /%s %d Tf %d %.1f Td (%s) Tj ET\n", font, l.size, margin, y, escape(l.text))
		}
		contentID := len(objs) + 1
		objs = append(objs, fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", content.Len(), content.String()))
		pageID := len(objs) + 1
		objs = append(objs, fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 %d %d] /Resources << /Font << /F1 3 0 R /F2 4 0 R >> >> /Contents %d 0 R >>", pageW, pageH, contentID))
		kids = append(kids, fmt.Sprintf("%d 0 R", pageID))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))

	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&out, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return out.Bytes()
}

// escape converts to Windows-1252 (the fonts' encoding) and escapes PDF string syntax.
func escape(s string) string {
	enc, err := charmap.Windows1252.NewEncoder().String(s)
	if err != nil {
		enc = s
	}
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(enc)
}

func wrap(text string, width int) []string {
	var out []string
	var cur []rune
	for _, word := range strings.Fields(text) {
		w := []rune(word)
		if len(cur) > 0 && len(cur)+1+len(w) > width {
			out = append(out, string(cur))
			cur = nil
		}
		if len(cur) > 0 {
			cur = append(cur, ' ')
		}
		cur = append(cur, w...)
	}
	if len(cur) > 0 {
		out = append(out, string(cur))
	}
	return out
}
