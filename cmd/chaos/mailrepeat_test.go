package main

import (
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"oportuna/mailer"
)

// workerLog writes a worker incarnation's log as the worker does (slog's JSON
// handler): one AcceptedLog line per attempt given, among other lines.
func workerLog(t *testing.T, dir, name, key string, attempts []int, extra ...string) string {
	t.Helper()
	path := filepath.Join(dir, name)
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	l := slog.New(slog.NewJSONHandler(f, nil))
	l.Info("worker started")
	for _, a := range attempts {
		l.Info(mailer.AcceptedLog, "key", key, "attempt", a, "refused", 0)
		l.Info(mailer.AcceptedLog, "key", key+"/other", "attempt", a, "refused", 0)
	}
	for _, e := range extra {
		l.Error("Activity error.", "err", e)
	}
	return path
}

func TestARepeatedEmailIsKeptOnlyWhenAKilledWorkerAcceptedEachEarlierCopy(t *testing.T) {
	const key = "notice/4ff55365/0/2/approved/e7cbdcf4"
	for _, c := range []struct {
		name   string
		logs   func(dir string) ([]string, map[string]bool)
		copies int
		want   []string
	}{
		{"the first attempt's worker killed after the 250, the retry delivered", func(dir string) ([]string, map[string]bool) {
			a, b := workerLog(t, dir, "worker-03.log", key, []int{1}), workerLog(t, dir, "worker-04.log", key, []int{2})
			return []string{a, b}, map[string]bool{a: true}
		}, 2, []string{"worker-03.log", "worker-04.log"}},
		{"a copy no attempt accepted (sent from elsewhere, as chaos -inject does)", func(dir string) ([]string, map[string]bool) {
			a := workerLog(t, dir, "worker-03.log", key, []int{1})
			return []string{a}, map[string]bool{a: true}
		}, 2, nil},
		{"the first attempt's worker was not killed", func(dir string) ([]string, map[string]bool) {
			a, b := workerLog(t, dir, "worker-03.log", key, []int{1}), workerLog(t, dir, "worker-04.log", key, []int{2})
			return []string{a, b}, map[string]bool{}
		}, 2, nil},
		{"one attempt accepted it twice", func(dir string) ([]string, map[string]bool) {
			a, b := workerLog(t, dir, "worker-03.log", key, []int{1}), workerLog(t, dir, "worker-04.log", key, []int{1})
			return []string{a, b}, map[string]bool{a: true}
		}, 2, nil},
		{"the outbox update failed (the mailer's error)", func(dir string) ([]string, map[string]bool) {
			a := workerLog(t, dir, "worker-03.log", key, []int{1}, "mailer: mark "+key+" sent: connection refused")
			b := workerLog(t, dir, "worker-04.log", key, []int{2})
			return []string{a, b}, map[string]bool{a: true}
		}, 2, nil},
		{"three copies, two kills", func(dir string) ([]string, map[string]bool) {
			a, b, c := workerLog(t, dir, "worker-01.log", key, []int{1}), workerLog(t, dir, "worker-02.log", key, []int{2}),
				workerLog(t, dir, "worker-03.log", key, []int{3})
			return []string{a, b, c}, map[string]bool{a: true, b: true}
		}, 3, []string{"worker-01.log", "worker-02.log", "worker-03.log"}},
	} {
		logs, killed := c.logs(t.TempDir())
		if got := keptCopies(logs, killed, key, c.copies); !slices.Equal(got, c.want) {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
}
