package deploy_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"oportuna/brand"
	"oportuna/mailer"
)

// TestMakeRunLinksEveryBrandToItsOwnPortal runs scripts/run.sh's own lines
// that set PORTAL_URL (with PORT=8080 and no PORTAL_URL, as `make run` does)
// and checks the e-mail links they give: the shell must not end the default
// at the first '}' (it once gave http://{brand.localhost:8080}/...).
func TestMakeRunLinksEveryBrandToItsOwnPortal(t *testing.T) {
	script, err := os.ReadFile(filepath.Join(root, "scripts", "run.sh"))
	if err != nil {
		t.Fatal(err)
	}
	var lines []string
	for _, l := range strings.Split(string(script), "\n") {
		if strings.HasPrefix(l, "default_portal=") || (strings.HasPrefix(l, "export ") && strings.Contains(l, "PORTAL_URL=")) {
			lines = append(lines, l)
		}
	}
	if len(lines) == 0 {
		t.Fatal("scripts/run.sh sets no PORTAL_URL")
	}
	cmd := exec.Command("bash", "-c", strings.Join(lines, "\n")+"\nprintf %s \"$PORTAL_URL\"")
	cmd.Env = []string{"PORT=8080", "PATH=" + os.Getenv("PATH")}
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("bash: %v", err)
	}
	c, err := mailer.ConfigFromEnv(func(k string) string {
		if k == "PORTAL_URL" {
			return string(out)
		}
		return ""
	})
	if err != nil {
		t.Fatalf("PORTAL_URL %q refused: %v", out, err)
	}
	for _, b := range brand.MustLoad().All() {
		if got, want := c.Portal(b), "http://"+b.Slug+".localhost:8080"; got != want {
			t.Errorf("%s: links to %q, want %q", b.Slug, got, want)
		}
	}
}
