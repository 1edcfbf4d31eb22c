package proc

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"
)

// TestKillThenStartIsANewIncarnation: a killed process is gone, Start runs a
// new one with a log of its own, and a running one is not started twice.
func TestKillThenStartIsANewIncarnation(t *testing.T) {
	p := New("sleeper", []string{"sh", "-c", "echo started; exec sleep 60"}, t.TempDir(), nil)
	// Ready once this incarnation wrote its line.
	p.Ready = func(context.Context) error {
		logs := p.LogFiles()
		if data, err := os.ReadFile(logs[len(logs)-1]); err != nil || string(data) != "started\n" {
			return errors.New("not yet")
		}
		return nil
	}
	ctx := context.Background()
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	first := p.Pid()
	if !p.Running() || first == 0 {
		t.Fatalf("running %v, pid %d", p.Running(), first)
	}
	if err := p.Start(ctx); err == nil {
		t.Error("a second Start of a running process was not refused")
	}
	p.Kill()
	if p.Running() || p.Pid() != 0 {
		t.Errorf("after Kill: running %v, pid %d", p.Running(), p.Pid())
	}
	if err := p.Start(ctx); err != nil {
		t.Fatal(err)
	}
	if p.Pid() == first || p.Pid() == 0 {
		t.Errorf("second incarnation pid %d, first %d", p.Pid(), first)
	}
	p.Stop(5 * time.Second)
	logs := p.LogFiles()
	if len(logs) != 2 || !strings.HasSuffix(logs[0], "sleeper-01.log") || !strings.HasSuffix(logs[1], "sleeper-02.log") {
		t.Fatalf("logs %v", logs)
	}
	for _, l := range logs {
		if data, err := os.ReadFile(l); err != nil || string(data) != "started\n" {
			t.Errorf("%s: %q, %v", l, data, err)
		}
	}
}

func TestStartFailsWhenTheProcessExitsBeforeReady(t *testing.T) {
	p := New("gone", []string{"true"}, t.TempDir(), nil)
	p.Ready = func(context.Context) error { return errors.New("never") }
	err := p.Start(context.Background())
	if err == nil || !strings.Contains(err.Error(), "exited while starting") {
		t.Errorf("Start = %v", err)
	}
}
