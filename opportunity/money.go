package opportunity

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Money is an exact amount in centavos. It reads "1.234,56", "1234,56",
// "1234.56" or a JSON number, and writes a JSON number with two decimals.
type Money int64

// ErrMoney is a value that is not an amount with at most two decimals.
var ErrMoney = errors.New("valor inválido")

// ParseMoney reads a pt-BR or plain decimal amount exactly.
func ParseMoney(s string) (Money, error) {
	s = strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s), "R$"))
	if s == "" {
		return 0, ErrMoney
	}
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	if strings.Contains(s, ",") {
		// pt-BR: dots group thousands, the comma is the decimal mark.
		s = strings.ReplaceAll(s, ".", "")
		s = strings.Replace(s, ",", ".", 1)
	}
	whole, frac, _ := strings.Cut(s, ".")
	if whole == "" && frac == "" {
		return 0, ErrMoney
	}
	if whole == "" {
		whole = "0"
	}
	if len(frac) > 2 || strings.ContainsAny(whole+frac, ".,+- ") {
		return 0, ErrMoney
	}
	for len(frac) < 2 {
		frac += "0"
	}
	w, err := strconv.ParseInt(whole, 10, 64)
	if err != nil || w > 1e13 {
		return 0, ErrMoney
	}
	f, err := strconv.ParseInt(frac, 10, 64)
	if err != nil {
		return 0, ErrMoney
	}
	m := Money(w*100 + f)
	if neg {
		m = -m
	}
	return m, nil
}

// String writes the amount as "1234.56".
func (m Money) String() string {
	sign := ""
	v := int64(m)
	if v < 0 {
		sign, v = "-", -v
	}
	return fmt.Sprintf("%s%d.%02d", sign, v/100, v%100)
}

// BRL writes the amount as the screens show it: "R$ 1.234,56".
func (m Money) BRL() string {
	s := m.String()
	sign := ""
	if strings.HasPrefix(s, "-") {
		sign, s = "-", s[1:]
	}
	whole, frac, _ := strings.Cut(s, ".")
	var b strings.Builder
	for i, c := range whole {
		if i > 0 && (len(whole)-i)%3 == 0 {
			b.WriteByte('.')
		}
		b.WriteRune(c)
	}
	return sign + "R$ " + b.String() + "," + frac
}

// MarshalJSON writes a number with two decimals.
func (m Money) MarshalJSON() ([]byte, error) { return []byte(m.String()), nil }

// UnmarshalJSON reads a number or a string.
func (m *Money) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	if bytes.Equal(b, []byte("null")) {
		*m = 0
		return nil
	}
	var s string
	if len(b) > 0 && b[0] == '"' {
		if err := json.Unmarshal(b, &s); err != nil {
			return ErrMoney
		}
	} else {
		s = string(b)
		if strings.ContainsAny(s, "eE") {
			return ErrMoney
		}
	}
	v, err := ParseMoney(s)
	if err != nil {
		return err
	}
	*m = v
	return nil
}
