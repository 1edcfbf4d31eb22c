// Package cnpj validates and formats Brazilian company tax ids (CNPJ), numeric
// and the alphanumeric format introduced in 2026.
package cnpj

import (
	"strings"
)

// Normalize keeps the ASCII letters and digits of s, upper-cased
// ("12.abc.345/01DE-35" → "12ABC34501DE35"); everything else is dropped (also
// letters that only upper-case into ASCII, such as 'ſ' or 'ı').
func Normalize(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'Z':
			b.WriteByte(c)
		case c >= 'a' && c <= 'z':
			b.WriteByte(c - 'a' + 'A')
		}
	}
	return b.String()
}

// value is a character's weight in the check-digit sum: its ASCII code minus 48
// (so digits keep their value and 'A' counts 17).
func value(c byte) int { return int(c) - '0' }

// CheckDigits computes the two check digits of a 12-character base.
func CheckDigits(base string) (string, bool) {
	if len(base) != 12 {
		return "", false
	}
	for i := 0; i < 12; i++ {
		c := base[i]
		if !(c >= '0' && c <= '9') && !(c >= 'A' && c <= 'Z') {
			return "", false
		}
	}
	d1 := digit(base)
	d2 := digit(base + string(rune('0'+d1)))
	return string([]byte{byte('0' + d1), byte('0' + d2)}), true
}

func digit(s string) int {
	sum, w := 0, 2
	for i := len(s) - 1; i >= 0; i-- {
		sum += value(s[i]) * w
		w++
		if w > 9 {
			w = 2
		}
	}
	if r := sum % 11; r >= 2 {
		return 11 - r
	}
	return 0
}

// Valid reports whether s (masked or not) is a CNPJ with correct check digits.
// Repeated-digit numbers such as 00.000.000/0000-00 are rejected.
func Valid(s string) bool {
	n := Normalize(s)
	if len(n) != 14 || n[12] < '0' || n[12] > '9' || n[13] < '0' || n[13] > '9' {
		return false
	}
	if strings.Count(n, n[:1]) == 14 {
		return false
	}
	want, ok := CheckDigits(n[:12])
	return ok && want == n[12:]
}

// Format writes a 14-character CNPJ as 00.000.000/0000-00; anything else is returned as is.
func Format(s string) string {
	n := Normalize(s)
	if len(n) != 14 {
		return s
	}
	return n[0:2] + "." + n[2:5] + "." + n[5:8] + "/" + n[8:12] + "-" + n[12:14]
}
