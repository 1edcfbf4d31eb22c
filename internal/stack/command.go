package stack

import (
	"context"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"
)

// RunDir is where a run of the command tool keeps its data and logs when
// none is given: .data/<tool>/<the start, UTC>.
func RunDir(tool string) string {
	return filepath.Join(".data", tool, time.Now().UTC().Format("20060102-150405"))
}

// CommandContext starts a command that runs a stack (chaos, loadtest,
// restoredrill, make cluster): text logs on stderr from info up, and a
// context that SIGINT or SIGTERM cancels.
func CommandContext() (context.Context, context.CancelFunc) {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	return signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
}
