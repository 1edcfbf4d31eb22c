package web

import (
	"errors"
	"io/fs"
	"testing"
	"testing/fstest"
)

// TestAppNeedsTheBuild: with only the placeholder (a tree where npm has not
// run) App answers ErrNotBuilt; with web/dist it serves dist's files from its
// root.
func TestAppNeedsTheBuild(t *testing.T) {
	placeholder := fstest.MapFS{"dist-placeholder/README.md": {Data: []byte("#")}}
	if _, err := app(placeholder); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("placeholder only: %v, want ErrNotBuilt", err)
	}
	built := fstest.MapFS{
		"dist-placeholder/README.md": {Data: []byte("#")},
		"dist/index.html":            {Data: []byte("<html><head></head></html>")},
		"dist/assets/app.js":         {Data: []byte("x")},
	}
	got, err := app(built)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(got, "assets/app.js"); err != nil || string(b) != "x" {
		t.Errorf("assets/app.js = %q, %v", b, err)
	}
	// The embedded files: the placeholder at least, whether or not npm ran.
	if _, err := fs.Stat(files, "dist-placeholder/README.md"); err != nil {
		t.Errorf("the placeholder is not embedded: %v", err)
	}
}
