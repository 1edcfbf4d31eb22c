package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"oportuna/internal/testenv"
)

// The stand-ins a production build leaves out.
var standInPkgs = []string{"oportuna/internal/dev/crmsim", "oportuna/internal/dev/cnpjsim"}

// dockerfileTags are the build tags the Dockerfile's Go stage builds with.
func dockerfileTags(t *testing.T) string {
	t.Helper()
	var lines []string
	inGo := false
	for _, l := range joinContinuations(string(readFile(t, "Dockerfile"))) {
		if f := strings.Fields(l); len(f) > 1 && strings.EqualFold(f[0], "FROM") {
			inGo = strings.HasPrefix(f[1], "golang:")
		}
		if inGo {
			lines = append(lines, l)
		}
	}
	var tags []string
	for tag := range dockerfileBuildTags(lines) {
		tags = append(tags, tag)
	}
	return strings.Join(tags, ",")
}

// TestTheProductionBuildLeavesTheStandInOut: built with the Dockerfile's
// tags (none: the default build), ./cmd/oportuna depends on nothing under
// internal/dev/ (the stand-ins internal/dev/crmsim and cnpjsim among them); a
// development build (-tags dev) depends on both stand-ins.
func TestTheProductionBuildLeavesTheStandInOut(t *testing.T) {
	deps := func(tags string) string {
		t.Helper()
		cmd := exec.Command("go", "list", "-deps", "-tags", tags, "./cmd/oportuna")
		cmd.Dir = root
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps -tags %q: %v\n%s", tags, err, out)
		}
		return string(out)
	}
	tags := dockerfileTags(t)
	prod, dev := deps(tags), deps("dev")
	if strings.Contains(prod, "oportuna/internal/dev/") {
		t.Errorf("the production build (-tags %q) contains a package of internal/dev/:\n%s", tags, prod)
	}
	for _, pkg := range standInPkgs {
		if !strings.Contains(dev, pkg+"\n") {
			t.Errorf("the development build (-tags dev) lacks %s (make run, the demo)", pkg)
		}
	}
}

// TestTheProductionBinaryRefusesTheStandIn: asked for the stand-in
// (`oportuna crm-sim`, CRM_SIM=on, `dev` without CRM_URL), the production
// build says it has none and exits 1.
func TestTheProductionBinaryRefusesTheStandIn(t *testing.T) {
	testenv.NeedsServices(t) // it builds the binary and gives it a database
	bin := filepath.Join(t.TempDir(), "oportuna")
	build := exec.Command("go", "build", "-trimpath", "-tags", dockerfileTags(t), "-o", bin, "./cmd/oportuna")
	build.Dir = root
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	dbURL := testenv.NewDatabaseURL(t)
	base := append(os.Environ(), "DATABASE_URL="+dbURL, "JWT_SECRET=0123456789abcdef0123456789abcdef0123", "CRM_URL=",
		"TEMPORAL_ADDRESS=127.0.0.1:1")
	for _, c := range []struct {
		name string
		args []string
		env  []string
	}{
		{"crm-sim", []string{"crm-sim"}, nil},
		{"worker with CRM_SIM=on", []string{"worker"}, []string{"CRM_SIM=on"}},
		{"dev without CRM_URL", []string{"dev"}, nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			cmd := exec.Command(bin, c.args...)
			cmd.Env = append(append([]string(nil), base...), c.env...)
			done := make(chan struct{})
			var out []byte
			var err error
			go func() { out, err = cmd.CombinedOutput(); close(done) }()
			select {
			case <-done:
			case <-time.After(30 * time.Second):
				_ = cmd.Process.Kill()
				<-done
				t.Fatalf("still running after 30 s:\n%s", out)
			}
			if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
				t.Errorf("exit: %v, want status 1\n%s", err, out)
			}
			if !strings.Contains(string(out), "without the Salesforce stand-in") || !strings.Contains(string(out), "CRM_URL") {
				t.Errorf("no clear error:\n%s", out)
			}
		})
	}
}
