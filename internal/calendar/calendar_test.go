package calendar_test

import (
	"testing"
	"time"

	"oportuna/internal/calendar"
)

// lateEvening is 23:30 in Brasília on 30 November 2026: already 1 December in
// UTC (02:30) and in most of the world east of Brasília.
var lateEvening = time.Date(2026, 11, 30, 23, 30, 0, 0, calendar.Location)

func TestLocationIsBrasiliaFromTheEmbeddedDatabase(t *testing.T) {
	if calendar.Location.String() != "America/Sao_Paulo" {
		t.Fatalf("location %s", calendar.Location)
	}
	if _, off := lateEvening.Zone(); off != -3*3600 {
		t.Errorf("offset %d s, want −3 h", off)
	}
	// Before 2019 Brasília kept summer time: the zone is the real one, not a fixed offset.
	if _, off := time.Date(2018, 12, 1, 12, 0, 0, 0, calendar.Location).Zone(); off != -2*3600 {
		t.Errorf("December 2018 offset %d s, want −2 h (horário de verão)", off)
	}
}

func TestTheDayIsBrasiliasAtHalfPastElevenAtNight(t *testing.T) {
	for _, now := range []time.Time{lateEvening, lateEvening.UTC(), lateEvening.In(time.FixedZone("LINT", 14*3600)), lateEvening.Local()} {
		if got := calendar.Date(now); !got.Equal(time.Date(2026, 11, 30, 0, 0, 0, 0, time.UTC)) {
			t.Errorf("Date(%v) = %v", now, got)
		}
		if got := calendar.ISO(now); got != "2026-11-30" {
			t.Errorf("ISO(%v) = %s", now, got)
		}
		if got := calendar.Format(now); got != "30/11/2026" {
			t.Errorf("Format(%v) = %s", now, got)
		}
		if got := calendar.MonthStart(now); !got.Equal(time.Date(2026, 11, 1, 3, 0, 0, 0, time.UTC)) {
			t.Errorf("MonthStart(%v) = %v", now, got)
		}
		if got := calendar.YearStart(now); !got.Equal(time.Date(2026, 1, 1, 3, 0, 0, 0, time.UTC)) {
			t.Errorf("YearStart(%v) = %v", now, got)
		}
	}
}

func TestStartIsMidnightInBrasilia(t *testing.T) {
	d := calendar.Date(lateEvening)
	if got := calendar.Start(d); !got.Equal(time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("Start(%v) = %v", d, got)
	}
	if end := calendar.Start(d).AddDate(0, 0, 1); !lateEvening.Before(end) || !end.Equal(time.Date(2026, 12, 1, 3, 0, 0, 0, time.UTC)) {
		t.Errorf("end of the day %v", end)
	}
}
