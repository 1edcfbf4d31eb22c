package opportunity

import (
	"encoding/json"
	"strings"
	"testing"

	"oportuna/geo"
)

// The server reads the phone and the CEP inside CreatePayload.Check (there is no
// separate parser): these targets feed any value through the JSON decoding of
// the create payload and the form rules, as a request would.

// checkField decodes the valid payload with one field replaced by the raw JSON
// value, and runs Check. ok is false when the body would be refused as bad JSON.
func checkField(t *testing.T, field string, raw json.RawMessage) (Record, []FieldError, bool) {
	var m map[string]any
	if err := json.Unmarshal([]byte(validPayload), &m); err != nil {
		t.Fatal(err)
	}
	m[field] = raw
	b, err := json.Marshal(m)
	if err != nil {
		return Record{}, nil, false // not a JSON value at all
	}
	var p CreatePayload
	if err := json.Unmarshal(b, &p); err != nil {
		return Record{}, nil, false
	}
	rec, errs := p.Check("nordata", now)
	return rec, errs, true
}

func errorsOf(errs []FieldError, field string) []FieldError {
	var out []FieldError
	for _, e := range errs {
		if e.Field == field {
			out = append(out, e)
		}
	}
	return out
}

func asciiDigits(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] >= '0' && s[i] <= '9' {
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

// rawValues gives the fuzzed text both as a JSON string and, when it is one, as a
// JSON number (the spec sends phone and cep as numbers).
func rawValues(s string) []json.RawMessage {
	str, _ := json.Marshal(s)
	out := []json.RawMessage{str}
	var n json.Number
	if json.Unmarshal([]byte(s), &n) == nil && strings.TrimSpace(s) != "" {
		out = append(out, json.RawMessage(strings.TrimSpace(s)))
	}
	return out
}

// FuzzCheckPhone: never panics; the phone is required, accepted exactly when it
// has 10 or 11 digits not all zero, and stored as those ASCII digits only.
func FuzzCheckPhone(f *testing.F) {
	for _, s := range []string{"11987654321", "(11) 98765-4321", "1133334444", "", "   ", "0000000000", "123",
		"119876543210", "+55 11 98765-4321", "11987654321.0", "1.1987654321e10", "١١٩٨٧٦٥٤٣٢١", "11 9876\x00 54321", "-11987654321"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, raw := range rawValues(s) {
			rec, errs, ok := checkField(t, "phone", raw)
			if !ok {
				continue
			}
			var text string
			if json.Unmarshal(raw, &text) != nil {
				text = string(raw) // a number: its JSON text
			}
			d := asciiDigits(text)
			phoneErrs := errorsOf(errs, "phone")
			valid := (len(d) == 10 || len(d) == 11) && strings.Trim(d, "0") != ""
			switch {
			case d == "":
				if len(phoneErrs) != 1 || phoneErrs[0].Message != MsgRequired {
					t.Fatalf("phone %s: %v, want required", raw, phoneErrs)
				}
			case !valid:
				if len(phoneErrs) != 1 || phoneErrs[0].Message != MsgInvalidPhone {
					t.Fatalf("phone %s: %v, want %q", raw, phoneErrs, MsgInvalidPhone)
				}
			default:
				if len(phoneErrs) != 0 {
					t.Fatalf("phone %s refused: %v", raw, phoneErrs)
				}
				if len(errs) != 0 {
					t.Fatalf("phone %s broke other fields: %v", raw, errs)
				}
				if rec.Phone != d {
					t.Fatalf("phone %s stored as %q, want %q", raw, rec.Phone, d)
				}
			}
		}
	})
}

// FuzzCheckCEP: never panics; the CEP is required (blank refused); an accepted
// CEP is what geo.ParseCEP makes of it (8 digits, the leading zero a number loses
// restored), anything else is refused as 'CEP inválido'.
func FuzzCheckCEP(f *testing.F) {
	for _, s := range []string{"01310-100", "1310100", "01.310-100", "", "  ", "abc", "00000-000", "013101000", "1e7", "٠١٣١٠١٠٠"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, raw := range rawValues(s) {
			rec, errs, ok := checkField(t, "cep", raw)
			if !ok {
				continue
			}
			var text string
			if json.Unmarshal(raw, &text) != nil {
				text = string(raw)
			}
			cepErrs := errorsOf(errs, "cep")
			if strings.TrimSpace(text) == "" {
				if len(cepErrs) != 1 || cepErrs[0].Message != MsgRequired {
					t.Fatalf("cep %s: %v, want required", raw, cepErrs)
				}
				continue
			}
			want, valid := geo.ParseCEP(text)
			if !valid {
				if len(cepErrs) != 1 || cepErrs[0].Message != MsgInvalidCEP {
					t.Fatalf("cep %s: %v, want invalid", raw, cepErrs)
				}
				continue
			}
			if len(errs) != 0 {
				t.Fatalf("cep %s refused: %v", raw, errs)
			}
			if rec.CEP != want || len(rec.CEP) != 8 {
				t.Fatalf("cep %s stored as %q, want %q", raw, rec.CEP, want)
			}
		}
	})
}
