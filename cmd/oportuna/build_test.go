package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// root is the repository's root, from this package's directory.
const root = "../.."

// goList is `go list -deps` of ./cmd/oportuna with the given build flags.
func goList(t *testing.T, flags ...string) []string {
	t.Helper()
	cmd := exec.Command("go", append(append([]string{"list", "-deps"}, flags...), "./cmd/oportuna")...)
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list -deps %v: %v\n%s", flags, err, out)
	}
	return strings.Fields(string(out))
}

// notInProduction says why a package of the module may not be in the
// production binary: a stand-in or dev tool (internal/dev/), the test
// harness, the programs that start stacks, or a test helper package.
func notInProduction(pkg string) string {
	switch {
	case strings.HasPrefix(pkg, "oportuna/internal/dev/"):
		return "a stand-in or dev helper (internal/dev/)"
	case pkg == "oportuna/internal/testenv", pkg == "oportuna/internal/postfix":
		return "the test harness"
	case pkg == "oportuna/internal/stack", strings.HasPrefix(pkg, "oportuna/internal/stack/"):
		return "the stack of chaos, the load test and make cluster"
	case strings.HasPrefix(pkg, "oportuna/") && (strings.HasSuffix(pkg, "test") || strings.HasSuffix(pkg, "sim")):
		return "a test helper or a stand-in"
	}
	return ""
}

// TestTheDefaultBuildIsTheProductionBuild: the default build of
// ./cmd/oportuna (no build tags: the Dockerfile's) depends on no stand-in, no
// dev helper and no test harness; the development build (-tags dev: make
// build, make run, the tests) has both stand-ins.
func TestTheDefaultBuildIsTheProductionBuild(t *testing.T) {
	prod := goList(t)
	if !strings.Contains(strings.Join(prod, "\n"), "oportuna/crm\n") {
		t.Fatalf("go list printed no oportuna/crm: %v", prod)
	}
	for _, pkg := range prod {
		if why := notInProduction(pkg); why != "" {
			t.Errorf("the production build depends on %s: %s", pkg, why)
		}
	}
	dev := strings.Join(goList(t, "-tags", "dev"), "\n") + "\n"
	for _, pkg := range []string{"oportuna/internal/dev/crmsim", "oportuna/internal/dev/cnpjsim"} {
		if !strings.Contains(dev, pkg+"\n") {
			t.Errorf("the development build (-tags dev) lacks %s", pkg)
		}
	}
	for pkg, bad := range map[string]bool{
		"oportuna/internal/dev/crmsim": true, "oportuna/internal/testenv": true, "oportuna/internal/stack/proc": true,
		"oportuna/mailer/mailtest": true, "oportuna/crm": false, "oportuna/internal/metrics": false,
	} {
		if got := notInProduction(pkg) != ""; got != bad {
			t.Errorf("notInProduction(%s) = %v, want %v", pkg, got, bad)
		}
	}
}

// TestMakeBuildEmbedsTheWebApp builds bin/oportuna with the Makefile's own
// recipe (make -n prints it) into a temporary file: the binary holds the web
// app (web/dist/index.html, byte for byte) and is a development build (-tags
// dev: make run, the browser tests, chaos and the load test use it). It needs
// the web app built by npm (make web), so make check (go test -short), which
// builds no web app, leaves it to make test.
func TestMakeBuildEmbedsTheWebApp(t *testing.T) {
	if testing.Short() {
		t.Skip("needs web/dist (npm run build); make go-test runs it")
	}
	index, err := os.ReadFile(filepath.Join(root, "web", "dist", "index.html"))
	if err != nil {
		t.Fatalf("the web app is not built (make web): %v", err)
	}
	// -B: print the recipe even when bin/oportuna is up to date; -o: without the web app's.
	cmd := exec.Command("make", "--no-print-directory", "-n", "-B",
		"-o", "web/dist/index.html", "-o", "web/node_modules/.installed", "bin/oportuna")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n bin/oportuna: %v\n%s", err, out)
	}
	var recipe string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.Contains(l, " build ") && strings.Contains(l, "./cmd/oportuna") {
			recipe = l
		}
	}
	outFlag := regexp.MustCompile(`-o\s+bin/oportuna\b`)
	if !outFlag.MatchString(recipe) {
		t.Fatalf("no go build of bin/oportuna in make -n:\n%s", out)
	}
	bin := filepath.Join(t.TempDir(), "oportuna")
	build := exec.Command("bash", "-c", outFlag.ReplaceAllLiteralString(recipe, "-o "+bin))
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", recipe, err, out)
	}
	raw, err := os.ReadFile(bin)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(raw, index) {
		t.Errorf("bin/oportuna (%s) does not embed web/dist/index.html", recipe)
	}
	info, err := exec.Command("go", "version", "-m", bin).Output()
	if err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^\s*build\s+-tags=dev$`).Match(info) {
		t.Errorf("bin/oportuna is not a development build (-tags dev):\n%s", info)
	}
}
