package testenv

import (
	"time"

	"oportuna/internal/calendar"
)

// LateEvening is 23:30 on 30/11/2026 in Brasília: 02:30 on 01/12 in UTC, 16:30
// on 01/12 in Kiritimati (UTC+14, the zone make test runs the Go tests in).
var LateEvening = time.Date(2026, 11, 30, 23, 30, 0, 0, calendar.Location)

// LateEvenings is the instant LateEvening given in Brasília, UTC, the
// machine's zone and UTC+14, by the zone's name: the rules must read
// Brasília's calendar whatever zone an instant carries.
func LateEvenings() map[string]time.Time {
	return map[string]time.Time{
		"Brasília": LateEvening, "UTC": LateEvening.UTC(), "machine zone": LateEvening.Local(),
		"UTC+14": LateEvening.In(time.FixedZone("LINT", 14*3600)),
	}
}
