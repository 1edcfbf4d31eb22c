package cnpj

import (
	"strings"
	"testing"
)

func seedCNPJs(f *testing.F) {
	for _, s := range []string{
		"11.222.333/0001-81", "11222333000181", "12.ABC.345/01DE-35", "12abc34501de35", "00.000.000/0000-00",
		"11111111111111", "", "1", "11.222.333/0001-82", "AAAAAAAAAAAA00", "ZZZZZZZZZZZZ99", "1122233300018",
		"112223330001811", "12ABC34501DE3A", "ſſſſſſſſſſſſ00", "１１２２２３３３０００１８１", "11.222.333\x00/0001-81",
	} {
		f.Add(s)
	}
}

// FuzzValid: never panics; a valid CNPJ stays valid through Format, Normalize
// and lower case, carries its computed check digits, and stops being valid
// when either check digit changes. An invalid one stays invalid when formatted.
func FuzzValid(f *testing.F) {
	seedCNPJs(f)
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if !Valid(s) {
			if Valid(Format(s)) || Valid(n) {
				t.Fatalf("%q invalid but its normalized or formatted form is valid", s)
			}
			return
		}
		if len(n) != 14 {
			t.Fatalf("Valid(%q) with %d characters", s, len(n))
		}
		formatted := Format(s)
		if len(formatted) != 18 || formatted[2] != '.' || formatted[6] != '.' || formatted[10] != '/' || formatted[15] != '-' {
			t.Fatalf("Format(%q) = %q", s, formatted)
		}
		if !Valid(formatted) || Normalize(formatted) != n || !Valid(n) || !Valid(strings.ToLower(n)) {
			t.Fatalf("%q: a form of a valid CNPJ is invalid (%q)", s, formatted)
		}
		if Format(formatted) != formatted {
			t.Fatalf("Format not idempotent on %q", formatted)
		}
		if d, ok := CheckDigits(n[:12]); !ok || d != n[12:] {
			t.Fatalf("CheckDigits(%q) = %q, %v; number ends %q", n[:12], d, ok, n[12:])
		}
		for i := 12; i < 14; i++ {
			b := []byte(n)
			b[i] = '0' + (b[i]-'0'+1)%10
			if Valid(string(b)) {
				t.Fatalf("%q valid after changing check digit %d of %q", b, i-11, n)
			}
		}
	})
}

// FuzzNormalize: the result is exactly the ASCII letters (upper-cased) and
// digits of the input, in order; normalizing again changes nothing.
func FuzzNormalize(f *testing.F) {
	seedCNPJs(f)
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		var want strings.Builder
		for i := 0; i < len(s); i++ {
			c := s[i]
			if (c >= '0' && c <= '9') || (c >= 'A' && c <= 'Z') {
				want.WriteByte(c)
			} else if c >= 'a' && c <= 'z' {
				want.WriteByte(c - 32)
			}
		}
		if n != want.String() {
			t.Fatalf("Normalize(%q) = %q, want %q", s, n, want.String())
		}
		if Normalize(n) != n {
			t.Fatalf("Normalize not idempotent: %q → %q", n, Normalize(n))
		}
		if len(n) != 14 && Format(s) != s {
			t.Fatalf("Format(%q) changed a value without 14 characters", s)
		}
	})
}

// FuzzCheckDigits: any 12-character base of digits and letters completed with
// its check digits is a valid CNPJ (unless it repeats one character), numeric
// check digits always; anything else is refused.
func FuzzCheckDigits(f *testing.F) {
	for _, s := range []string{"112223330001", "12ABC34501DE", "000000000000", "ZZZZZZZZZZZZ", "12abc34501de", "1122233300", "!!!!!!!!!!!!"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, base string) {
		d, ok := CheckDigits(base)
		wellFormed := len(base) == 12 && Normalize(base) == base
		if ok != wellFormed {
			t.Fatalf("CheckDigits(%q) ok=%v, well-formed=%v", base, ok, wellFormed)
		}
		if !ok {
			return
		}
		if len(d) != 2 || d[0] < '0' || d[0] > '9' || d[1] < '0' || d[1] > '9' {
			t.Fatalf("CheckDigits(%q) = %q", base, d)
		}
		full := base + d
		if Valid(full) != (strings.Count(full, full[:1]) != 14) {
			t.Fatalf("%q: Valid = %v", full, Valid(full))
		}
	})
}
