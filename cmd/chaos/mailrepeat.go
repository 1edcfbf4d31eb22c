package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"oportuna/mailer"
)

// SMTP cannot deliver exactly once (RFC 1047, "Duplicate messages and SMTP"):
// a sender that dies after the server's 250 and before it records the fact
// leaves an accepted e-mail that its retry sends again. The mailer keeps that
// moment short and logs mailer.AcceptedLog before recording, so the run can
// prove which copies came from it.

// keptCopies answers, for an e-mail delivered copies times, which worker log
// files show every copy but the last accepted by an attempt whose worker was
// then SIGKILLed (in killed) before it could record the delivery: one
// attempt's line per copy, each in its own attempt, every earlier one in a
// killed incarnation's log, and no failure to record it (the mailer's "mark
// <key> sent" error). It answers nil when the copies are not explained so,
// which is then a finding.
func keptCopies(logs []string, killed map[string]bool, key string, copies int) []string {
	type acceptance struct {
		file    string
		attempt int
	}
	var seen []acceptance
	markFailed, failed := "mark "+key+" sent", false
	eachLogLine(logs, func(path, line string) {
		if strings.Contains(line, markFailed) {
			failed = true
		}
		if !strings.Contains(line, mailer.AcceptedLog) {
			return
		}
		var rec struct {
			Msg     string `json:"msg"`
			Key     string `json:"key"`
			Attempt int    `json:"attempt"`
		}
		if json.Unmarshal([]byte(line), &rec) == nil && rec.Msg == mailer.AcceptedLog && rec.Key == key {
			seen = append(seen, acceptance{path, rec.Attempt})
		}
	})
	if failed {
		return nil
	}
	if len(seen) != copies {
		return nil
	}
	slices.SortFunc(seen, func(a, b acceptance) int { return a.attempt - b.attempt })
	var files []string
	for i, a := range seen {
		if i > 0 && a.attempt == seen[i-1].attempt {
			return nil // two copies from one attempt: never a kill's doing
		}
		if i < len(seen)-1 && !killed[a.file] {
			return nil
		}
		files = append(files, filepath.Base(a.file))
	}
	return files
}

// eachLogLine calls fn with each line of the files at paths (a file that
// cannot be read is passed over).
func eachLogLine(paths []string, fn func(path, line string)) {
	for _, path := range paths {
		f, err := os.Open(path)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			fn(path, sc.Text())
		}
		f.Close()
	}
}

// keptByKill reports whether an e-mail's copies are explained by worker kills
// (keptCopies), and records which logs show it.
func (h *harness) keptByKill(key string, copies int) bool {
	killed := map[string]bool{}
	h.killedLogs.Range(func(k, _ any) bool {
		killed[k.(string)] = true
		return true
	})
	files := keptCopies(h.worker.LogFiles(), killed, key, copies)
	if files == nil {
		return false
	}
	h.event("e-mail %s delivered %d times: accepted in %s, each worker but the last SIGKILLed before the outbox recorded it",
		key, copies, strings.Join(files, ", "))
	return true
}
