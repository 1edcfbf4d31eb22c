package pdf

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

func TestDocumentIsWellFormedWithCorrectXref(t *testing.T) {
	var paras []Paragraph
	for i := 0; i < 40; i++ {
		paras = append(paras, Paragraph{Text: "Seção " + strconv.Itoa(i), Heading: true},
			Paragraph{Text: strings.Repeat("Proteção de dados pessoais (LGPD) e opção de exclusão. ", 6)})
	}
	doc := Document("Política de Privacidade", paras)
	if !bytes.HasPrefix(doc, []byte("%PDF-1.4")) || !bytes.HasSuffix(doc, []byte("%%EOF\n")) {
		t.Fatal("missing PDF header or trailer")
	}
	m := regexp.MustCompile(`startxref\n(\d+)\n`).FindSubmatch(doc)
	if m == nil {
		t.Fatal("no startxref")
	}
	xref, _ := strconv.Atoi(string(m[1]))
	if !bytes.HasPrefix(doc[xref:], []byte("xref\n")) {
		t.Fatalf("startxref %d does not point at the xref table", xref)
	}
	// Every object offset in the table points at "N 0 obj".
	entries := regexp.MustCompile(`(\d{10}) 00000 n `).FindAllSubmatch(doc[xref:], -1)
	if len(entries) < 6 {
		t.Fatalf("only %d objects", len(entries))
	}
	for i, e := range entries {
		off, _ := strconv.Atoi(string(e[1]))
		if want := fmt.Sprintf("%d 0 obj", i+1); !bytes.HasPrefix(doc[off:], []byte(want)) {
			t.Errorf("object %d offset %d does not start with %q", i+1, off, want)
		}
	}
	if n := bytes.Count(doc, []byte("/Type /Page ")); n < 2 {
		t.Errorf("long text laid on %d page(s), want several", n)
	}
	// pt-BR accents are encoded in Windows-1252, parentheses escaped.
	if !bytes.Contains(doc, []byte("Prote\xe7\xe3o")) || !bytes.Contains(doc, []byte(`\(LGPD\)`)) {
		t.Error("text not encoded as expected")
	}
}
