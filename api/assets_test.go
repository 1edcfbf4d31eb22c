package api

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"oportuna/web"
)

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := gzip.NewWriter(&b)
	_, _ = w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestStaticAssetsAreSentPrecompressedByAcceptEncoding(t *testing.T) {
	js := strings.Repeat("console.log('oportuna');\n", 100)
	br := []byte("brotli bytes of app.js") // served as stored: the server never re-encodes
	s := &Server{Web: fstest.MapFS{
		"assets/app.js":     {Data: []byte(js)},
		"assets/app.js.br":  {Data: br},
		"assets/app.js.gz":  {Data: gz(t, js)},
		"assets/app.css":    {Data: []byte("body{}")},
		"assets/app.css.gz": {Data: gz(t, "body{}")},
		"assets/plain.svg":  {Data: []byte("<svg/>")},
	}}
	cases := []struct {
		path, accept, encoding, ctype string
		vary                          bool
	}{
		{"/assets/app.js", "gzip, deflate, br, zstd", "br", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "gzip", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "br;q=0, gzip;q=0.8", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "*", "br", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "br;q=0, *", "gzip", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "", "", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "identity", "", "text/javascript; charset=utf-8", true},
		{"/assets/app.js", "gzip;q=0, deflate", "", "text/javascript; charset=utf-8", true},
		{"/assets/app.css", "gzip, br", "gzip", "text/css; charset=utf-8", true},
		{"/assets/plain.svg", "gzip, br", "", "image/svg+xml", false},
	}
	for _, c := range cases {
		req := httptest.NewRequest(http.MethodGet, c.path, nil)
		if c.accept != "" {
			req.Header.Set("Accept-Encoding", c.accept)
		}
		rec := httptest.NewRecorder()
		s.handleWeb(rec, req)
		res := rec.Result()
		body, _ := io.ReadAll(res.Body)
		name := c.path + " (" + c.accept + ")"
		if res.StatusCode != 200 {
			t.Fatalf("%s: status %d", name, res.StatusCode)
		}
		if got := res.Header.Get("Content-Encoding"); got != c.encoding {
			t.Errorf("%s: Content-Encoding %q, want %q", name, got, c.encoding)
		}
		if got := res.Header.Get("Content-Type"); got != c.ctype {
			t.Errorf("%s: Content-Type %q, want %q", name, got, c.ctype)
		}
		if got := strings.Contains(res.Header.Get("Vary"), "Accept-Encoding"); got != c.vary {
			t.Errorf("%s: Vary %q", name, res.Header.Get("Vary"))
		}
		if !strings.Contains(res.Header.Get("Cache-Control"), "immutable") {
			t.Errorf("%s: Cache-Control %q", name, res.Header.Get("Cache-Control"))
		}
		var want []byte
		switch {
		case c.encoding == "br":
			want = br
		case c.encoding == "gzip":
			zr, err := gzip.NewReader(bytes.NewReader(body))
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if body, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			want, _ = fs.ReadFile(s.Web, strings.TrimPrefix(c.path, "/"))
		default:
			want, _ = fs.ReadFile(s.Web, strings.TrimPrefix(c.path, "/"))
		}
		if !bytes.Equal(body, want) {
			t.Errorf("%s: body %q, want %q", name, body, want)
		}
	}
}

// The build (web/build/precompress.ts) writes a brotli and a gzip copy of every
// script and style sheet, so no browser that accepts them downloads the raw bundle.
func TestBuiltScriptsAndStylesHaveBrotliAndGzipCopies(t *testing.T) {
	if testing.Short() {
		t.Skip("needs the web app built by npm (web/dist): -short (make check) builds none")
	}
	dist, err := web.App()
	if err != nil {
		t.Fatal(err) // build the web app first (make web)
	}
	n := 0
	err = fs.WalkDir(dist, "assets", func(name string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(name, ".js") || strings.HasSuffix(name, ".css")) {
			return err
		}
		info, err := d.Info()
		if err != nil || info.Size() < 1024 {
			return err
		}
		n++
		for _, ext := range []string{".br", ".gz"} {
			st, err := fs.Stat(dist, name+ext)
			if err != nil {
				t.Errorf("%s has no %s copy (is web/dist from `npm run build`?)", name, ext)
			} else if st.Size() >= info.Size() {
				t.Errorf("%s%s is not smaller (%d ≥ %d)", name, ext, st.Size(), info.Size())
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("web/dist/assets holds no script: build the web app first (make web)")
	}
}
