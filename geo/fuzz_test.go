package geo

import (
	"strings"
	"testing"
)

// FuzzParseCEP: never panics; an accepted CEP is 8 digits, not all zeros, and
// survives formatting and parsing again unchanged.
func FuzzParseCEP(f *testing.F) {
	for _, s := range []string{"01310-100", "01.310-100", "1310100", "00000-000", "", "abc", "99999999", "123456789", "0131O-100", "٣٠١٣٠٠١٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, ok := ParseCEP(s)
		if !ok {
			if d != "" {
				t.Fatalf("refused %q but returned %q", s, d)
			}
			if FormatCEP(s) != s {
				t.Fatalf("FormatCEP changed refused input %q", s)
			}
			return
		}
		if len(d) != 8 || strings.Trim(d, "0123456789") != "" || d == "00000000" {
			t.Fatalf("ParseCEP(%q) = %q", s, d)
		}
		formatted := FormatCEP(s)
		if len(formatted) != 9 || formatted[5] != '-' {
			t.Fatalf("FormatCEP(%q) = %q", s, formatted)
		}
		if again, ok := ParseCEP(formatted); !ok || again != d {
			t.Fatalf("round trip %q → %q → %q", s, formatted, again)
		}
		if again, ok := ParseCEP(d); !ok || again != d {
			t.Fatalf("digits %q do not parse to themselves", d)
		}
		if st, ok := StateOfCEP(d); ok {
			if _, known := StateByUF(st.Sigla); !known {
				t.Fatalf("StateOfCEP(%q) = unknown %q", d, st.Sigla)
			}
		}
	})
}

// FuzzCityByName: never panics, and whatever it finds really belongs to the
// state and folds to the same key as the query.
func FuzzCityByName(f *testing.F) {
	f.Add("MG", "Belo Horizonte")
	f.Add("sp", "SAO PAULO")
	f.Add("31", "itajubá")
	f.Add("xx", "")
	f.Fuzz(func(t *testing.T, uf, name string) {
		c, ok := CityByName(uf, name)
		if !ok {
			return
		}
		s, _ := StateByUF(uf)
		if c.UF != s.Sigla || Fold(c.Nome) != Fold(name) {
			t.Fatalf("CityByName(%q, %q) = %+v", uf, name, c)
		}
		if byID, ok := CityByID(c.ID); !ok || byID != c {
			t.Fatalf("CityByID(%d) = %+v, %v", c.ID, byID, ok)
		}
	})
}
