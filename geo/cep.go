package geo

import "strings"

// CEPRange is a span of postal codes (CEP) by their first five digits, inclusive.
type CEPRange struct{ From, To int }

// cepRanges are the Correios' CEP spans of each state.
var cepRanges = map[string][]CEPRange{
	"SP": {{1000, 19999}},
	"RJ": {{20000, 28999}},
	"ES": {{29000, 29999}},
	"MG": {{30000, 39999}},
	"BA": {{40000, 48999}},
	"SE": {{49000, 49999}},
	"PE": {{50000, 56999}},
	"AL": {{57000, 57999}},
	"PB": {{58000, 58999}},
	"RN": {{59000, 59999}},
	"CE": {{60000, 63999}},
	"PI": {{64000, 64999}},
	"MA": {{65000, 65999}},
	"PA": {{66000, 68899}},
	"AP": {{68900, 68999}},
	"AM": {{69000, 69299}, {69400, 69899}},
	"RR": {{69300, 69399}},
	"AC": {{69900, 69999}},
	"DF": {{70000, 72799}, {73000, 73699}},
	"GO": {{72800, 72999}, {73700, 76799}},
	"RO": {{76800, 76999}},
	"TO": {{77000, 77999}},
	"MT": {{78000, 78899}},
	"MS": {{79000, 79999}},
	"PR": {{80000, 87999}},
	"SC": {{88000, 89999}},
	"RS": {{90000, 99999}},
}

// CEPRanges lists the CEP spans of a state (see StateByUF).
func CEPRanges(uf string) []CEPRange {
	s, ok := StateByUF(uf)
	if !ok {
		return nil
	}
	return append([]CEPRange(nil), cepRanges[s.Sigla]...)
}

// ParseCEP reads a CEP written with or without its mask ("01310-100",
// "01.310-100", "01310100", " 1310100" for a number that lost its leading zero)
// and returns its 8 digits. It refuses anything that is not 7 or 8 digits
// (a 7-digit value gets its leading zero back), and 00000-000.
func ParseCEP(s string) (string, bool) {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			b.WriteRune(r)
		case r == '-' || r == '.' || r == ' ' || r == '\t':
		default:
			return "", false
		}
		if b.Len() > 8 {
			return "", false
		}
	}
	d := b.String()
	if len(d) == 7 {
		d = "0" + d
	}
	if len(d) != 8 || d == "00000000" {
		return "", false
	}
	return d, true
}

// FormatCEP writes 8 digits as 00000-000; anything else is returned as is.
func FormatCEP(s string) string {
	d, ok := ParseCEP(s)
	if !ok {
		return s
	}
	return d[:5] + "-" + d[5:]
}

// StateOfCEP is the state whose spans hold the CEP.
func StateOfCEP(cep string) (State, bool) {
	d, ok := ParseCEP(cep)
	if !ok {
		return State{}, false
	}
	prefix := 0
	for _, c := range d[:5] {
		prefix = prefix*10 + int(c-'0')
	}
	for uf, ranges := range cepRanges {
		for _, r := range ranges {
			if prefix >= r.From && prefix <= r.To {
				return StateByUF(uf)
			}
		}
	}
	return State{}, false
}
