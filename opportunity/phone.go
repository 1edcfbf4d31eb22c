package opportunity

// FormatPhone writes a Brazilian phone as the screens show it: (00) 00000-0000
// for 11 digits (mobile), (00) 0000-0000 for 10; anything else as it came.
func FormatPhone(phone string) string {
	d := digits(phone)
	switch len(d) {
	case 11:
		return "(" + d[:2] + ") " + d[2:7] + "-" + d[7:]
	case 10:
		return "(" + d[:2] + ") " + d[2:6] + "-" + d[6:]
	}
	return phone
}
