package opportunity

import "testing"

func TestFormatPhoneWritesMobileAndLandlineAsTheScreensDo(t *testing.T) {
	for in, want := range map[string]string{
		"11987654321":     "(11) 98765-4321",
		"(11) 98765-4321": "(11) 98765-4321",
		"1140002000":      "(11) 4000-2000",
		"123":             "123",
		"":                "",
	} {
		if got := FormatPhone(in); got != want {
			t.Errorf("FormatPhone(%q) = %q, want %q", in, got, want)
		}
	}
}
