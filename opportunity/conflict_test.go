package opportunity

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestCNPJRootIsTheFirstEightCharactersOfTheNormalisedCNPJ(t *testing.T) {
	for in, want := range map[string]string{
		"11.444.777/0001-61": "11444777", "11.444.777/0002-42": "11444777", "11444777000161": "11444777",
		"12.abc.345/01DE-35": "12ABC345", "12ABC34501DE35": "12ABC345", "1234567": "", "": "",
	} {
		if got := CNPJRoot(in); got != want {
			t.Errorf("CNPJRoot(%q) = %q, want %q", in, got, want)
		}
	}
}

// nameKeyCases are company names and their normalised key (also checked
// against the database's conflict_name_key in conflict_db_test.go).
var nameKeyCases = map[string]string{
	"Atacado Boa Compra Ltda":             "atacado boa compra",
	"ATACADO BOA COMPRA LTDA.":            "atacado boa compra",
	"Atacado Boa Compra Ltda. - ME":       "atacado boa compra",
	"atacado  boa-compra s.a.":            "atacado boa compra",
	"Atacado Boa Compra S/A":              "atacado boa compra",
	"Atacado Boa Compra SA":               "atacado boa compra",
	"Atacado Boa Compra EIRELI":           "atacado boa compra",
	"Atacado Boa Compra EPP":              "atacado boa compra",
	"Atacado Boa Compra Limitada":         "atacado boa compra",
	"Atacado Boa Compra MEI":              "atacado boa compra",
	"Comércio São João Ltda":              "comercio sao joao",
	"COMERCIO SAO JOAO":                   "comercio sao joao",
	"Come\u0301rcio Sa\u0303o Joa\u0303o": "comercio sao joao", // decomposed accents
	"Ação & Cia.":                         "acao cia",
	"Ótica Ímpar EPP LTDA":                "otica impar",
	"S.A.":                                "s a",
	"Ltda":                                "ltda",
	"ME S.A.":                             "me",
	"Sao Paulo Alpargatas S A":            "sao paulo alpargatas",
	"Metalúrgica Sasa":                    "metalurgica sasa",
	"Mercado Meu Lar":                     "mercado meu lar",
	"Padaria 2 Irmãos ltda":               "padaria 2 irmaos",
	"  ---  ":                             "",
	"":                                    "",
	"Müller & Søn":                        "muller s n",
}

func TestNameKeyDropsAccentsCasePunctuationAndLegalSuffixes(t *testing.T) {
	for in, want := range nameKeyCases {
		if got := NameKey(in); got != want {
			t.Errorf("NameKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// FuzzNameKey: the key is ASCII lower-case letters and digits in words
// separated by one space, normalising it again changes nothing, and case or
// a trailing legal suffix never changes it.
func FuzzNameKey(f *testing.F) {
	for in := range nameKeyCases {
		f.Add(in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		k := NameKey(s)
		for _, r := range k {
			if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == ' ') {
				t.Fatalf("NameKey(%q) = %q holds %q", s, k, r)
			}
		}
		if strings.HasPrefix(k, " ") || strings.HasSuffix(k, " ") || strings.Contains(k, "  ") {
			t.Fatalf("NameKey(%q) = %q: untrimmed or double spaces", s, k)
		}
		if again := NameKey(k); again != k && !strings.HasSuffix(k, " s") {
			// ("x s" + " a" is one suffix: the key of "x s" is "x s".)
			t.Fatalf("NameKey(NameKey(%q)) = %q, want %q", s, again, k)
		}
		if utf8.ValidString(s) && NameKey(strings.ToUpper(asciiOnly(s))) != NameKey(asciiOnly(s)) {
			t.Fatalf("case changes the key of %q", s)
		}
		if k != "" && NameKey(s+" Ltda.") != k && NameKey(s+" Ltda.") != NameKey(k+" ltda") {
			t.Fatalf("a trailing Ltda. changes the key of %q", s)
		}
	})
}

func asciiOnly(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 {
			b.WriteRune(r)
		}
	}
	return b.String()
}
