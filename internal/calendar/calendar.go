// Package calendar is Brasília's calendar. Every "today" of the portal (a visit
// that may not be in the future, a conclusion that must be, the dashboard's
// month, the export's dates, an expiry written as a day) is a day of this
// calendar, whatever the zone of the machine that computes it.
package calendar

import (
	"time"
	_ "time/tzdata" // the zone is in the binary: no dependence on the host's tz database
)

// Name is Brasília's zone in the tz database; SQL that needs a day of a
// timestamp passes it (… AT TIME ZONE $n).
const Name = "America/Sao_Paulo"

// Location is Brasília's time zone.
var Location = mustLoad(Name)

func mustLoad(name string) *time.Location {
	loc, err := time.LoadLocation(name)
	if err != nil {
		panic("calendar: " + err.Error()) // unreachable: time/tzdata is embedded
	}
	return loc
}

// In is the instant t on Brasília's clock.
func In(t time.Time) time.Time { return t.In(Location) }

// Date is the day of the instant t in Brasília, as midnight UTC: the form of
// a date with no time of day (opportunity.ParseDate's, a spreadsheet cell's,
// a CRM close date), so that comparing and formatting it needs no zone.
func Date(t time.Time) time.Time {
	y, m, d := t.In(Location).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

// ISO is the day of the instant t in Brasília as yyyy-mm-dd.
func ISO(t time.Time) string { return t.In(Location).Format(time.DateOnly) }

// Format is the day of the instant t in Brasília as dd/mm/aaaa, as the portal
// and its e-mails write dates.
func Format(t time.Time) string { return t.In(Location).Format("02/01/2006") }

// Start is the first instant, in Brasília, of the day d (its year, month and
// day, as Date and opportunity.ParseDate give them). The day ends at
// Start(d).AddDate(0, 0, 1).
func Start(d time.Time) time.Time {
	y, m, day := d.Date()
	return time.Date(y, m, day, 0, 0, 0, 0, Location)
}

// MonthStart is the first instant of the month of t in Brasília.
func MonthStart(t time.Time) time.Time {
	y, m, _ := t.In(Location).Date()
	return time.Date(y, m, 1, 0, 0, 0, 0, Location)
}

// YearStart is the first instant of the year of t in Brasília.
func YearStart(t time.Time) time.Time {
	return time.Date(t.In(Location).Year(), 1, 1, 0, 0, 0, 0, Location)
}
