package oportuna

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// maxDocWords is the budget of README.md and docs/*.md together: what a
// newcomer reads in about an hour.
const maxDocWords = 20000

// docPages are README.md and every page under docs/.
func docPages(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob("docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	return append([]string{"README.md"}, pages...)
}

// TestDocsStayReadableInAnHour: README.md and docs/*.md hold at most
// maxDocWords words (counted as wc -w counts them).
func TestDocsStayReadableInAnHour(t *testing.T) {
	total := 0
	for _, p := range docPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		n := len(strings.Fields(string(b)))
		t.Logf("%6d %s", n, p)
		total += n
	}
	t.Logf("%6d total", total)
	if total > maxDocWords {
		t.Errorf("README.md and docs/*.md hold %d words, over the budget of %d: shorten them", total, maxDocWords)
	}
}

var (
	mdLinkRE   = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	fenceLine  = regexp.MustCompile("^\\s*```")
	headingRE  = regexp.MustCompile(`^#{1,6}\s+(.+?)\s*#*\s*$`)
	docsFileRE = regexp.MustCompile(`docs/[A-Za-z0-9_.-]+\.(?:md|svg|png)`)
)

// anchor is the id GitHub gives a heading: lower case, punctuation dropped
// (letters, digits, spaces, '-' and '_' kept), spaces as '-'.
func anchor(heading string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(heading) {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
			b.WriteRune(r)
		}
	}
	return b.String()
}

// anchors are the ids of a Markdown file's headings (outside code fences),
// with GitHub's -1, -2 suffixes for repeated ones.
func anchors(text string) map[string]bool {
	ids := map[string]bool{}
	seen := map[string]int{}
	fenced := false
	for _, l := range strings.Split(text, "\n") {
		if fenceLine.MatchString(l) {
			fenced = !fenced
			continue
		}
		m := headingRE.FindStringSubmatch(l)
		if fenced || m == nil {
			continue
		}
		id := anchor(m[1])
		if n := seen[id]; n > 0 {
			ids[id+"-"+strconv.Itoa(n)] = true
		} else {
			ids[id] = true
		}
		seen[id]++
	}
	return ids
}

// TestDocLinksPointAtWhatExists: every relative link of README.md and
// docs/*.md names a file of the repository and, when it carries a #fragment
// into a Markdown page, one of that page's headings.
func TestDocLinksPointAtWhatExists(t *testing.T) {
	for _, p := range docPages(t) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		text := string(b)
		// Links inside code fences are code, not links.
		var prose strings.Builder
		fenced := false
		for _, l := range strings.Split(text, "\n") {
			if fenceLine.MatchString(l) {
				fenced = !fenced
				continue
			}
			if !fenced {
				prose.WriteString(l + "\n")
			}
		}
		for _, m := range mdLinkRE.FindAllStringSubmatch(prose.String(), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			file, frag, _ := strings.Cut(target, "#")
			path := p
			if file != "" {
				path = filepath.Join(filepath.Dir(p), file)
				if _, err := os.Stat(path); err != nil {
					t.Errorf("%s: the link %q names %s, which does not exist", p, target, path)
					continue
				}
			}
			if frag == "" || !strings.HasSuffix(path, ".md") {
				continue
			}
			dest, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if !anchors(string(dest))[frag] {
				t.Errorf("%s: the link %q names the heading #%s, which %s does not have", p, target, frag, path)
			}
		}
	}
}

// TestCodeNamesOnlyDocsThatExist: a comment, script or configuration file
// that sends its reader to docs/<page> names a page that exists.
func TestCodeNamesOnlyDocsThatExist(t *testing.T) {
	exts := map[string]bool{".go": true, ".ts": true, ".tsx": true, ".css": true, ".sh": true, ".mjs": true,
		".yml": true, ".yaml": true, ".example": true, ".sql": true}
	names := map[string]bool{"Makefile": true, "Dockerfile": true}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case ".git", "node_modules", ".data", "dist", "test-results", "playwright-report", "testdata":
				return filepath.SkipDir
			}
			return nil
		}
		if !exts[filepath.Ext(path)] && !names[d.Name()] {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, ref := range docsFileRE.FindAllString(string(b), -1) {
			if _, err := os.Stat(ref); err != nil {
				t.Errorf("%s names %s, which does not exist", path, ref)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestREADMEMapsEveryFolder: the README's folder map names every top-level
// folder of the repository (as `name/`).
func TestREADMEMapsEveryFolder(t *testing.T) {
	b, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		name := e.Name()
		// bin/ is build output (.gitignore); .git and .data are not the project's.
		if !e.IsDir() || name == "bin" || name == ".git" || name == ".data" {
			continue
		}
		if !strings.Contains(string(b), "`"+name+"/") {
			t.Errorf("README.md's folder map does not name %s/", name)
		}
	}
}
