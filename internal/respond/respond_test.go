package respond

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestInternalAnswers500WithTheGenericMessage(t *testing.T) {
	w := httptest.NewRecorder()
	Internal(w, httptest.NewRequest(http.MethodGet, "/api/x", nil), errors.New("boom"))
	var m Message
	if w.Code != http.StatusInternalServerError || json.Unmarshal(w.Body.Bytes(), &m) != nil || m.Message != Generic {
		t.Fatalf("status %d body %s", w.Code, w.Body)
	}
}

func TestInternalRecordsAGoneClientAsClosedNotAsAFault(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	w := httptest.NewRecorder()
	Internal(w, httptest.NewRequest(http.MethodGet, "/api/x", nil).WithContext(ctx), context.Canceled)
	if w.Code != StatusClientClosed {
		t.Fatalf("status %d, want %d", w.Code, StatusClientClosed)
	}
}

// TestDecodeBodyAnswers400ForABodyThatIsNotJSON: the handler's body is read,
// or the caller is answered 400 with the pt-BR message and the handler stops.
func TestDecodeBodyAnswers400ForABodyThatIsNotJSON(t *testing.T) {
	for body, ok := range map[string]bool{`{"pad":"x"}`: true, `{"pad":`: false, `[1]`: false} {
		w := httptest.NewRecorder()
		var v struct{ Pad string }
		got := DecodeBody(w, httptest.NewRequest(http.MethodPost, "/api/x", strings.NewReader(body)), &v)
		var m Message
		switch {
		case got != ok:
			t.Errorf("%s: decoded %v, want %v", body, got, ok)
		case ok && (v.Pad != "x" || w.Body.Len() != 0):
			t.Errorf("%s: read %q, answered %q", body, v.Pad, w.Body)
		case !ok && (w.Code != http.StatusBadRequest || json.Unmarshal(w.Body.Bytes(), &m) != nil || !strings.Contains(m.Message, "não é um JSON válido")):
			t.Errorf("%s: %d %s", body, w.Code, w.Body)
		}
	}
}

// TestABodyOverTheLimitIsAnswered413 over real HTTP: a 2 MB JSON body, sent
// with its length or chunked, is answered 413 with the pt-BR message before the
// handler runs (it was cut at 1 MiB and answered 400 "não é um JSON válido");
// a body within the limit reaches the handler whole.
func TestABodyOverTheLimitIsAnswered413(t *testing.T) {
	var got int
	srv := httptest.NewServer(LimitBody(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var v struct{ Pad string }
		if !DecodeBody(w, r, &v) {
			return
		}
		got = len(v.Pad)
		JSON(w, http.StatusOK, nil)
	})))
	defer srv.Close()
	body := func(n int) string { return `{"pad":"` + strings.Repeat("a", n) + `"}` }
	for _, c := range []struct {
		name    string
		size    int
		chunked bool
		want    int
	}{
		{"2 MB", 2 << 20, false, http.StatusRequestEntityTooLarge},
		{"2 MB chunked", 2 << 20, true, http.StatusRequestEntityTooLarge},
		{"one byte over", MaxBody - 10 + 1, false, http.StatusRequestEntityTooLarge},
		{"one byte over, chunked", MaxBody - 10 + 1, true, http.StatusRequestEntityTooLarge},
		{"at the limit", MaxBody - 10, false, http.StatusOK},
		{"at the limit, chunked", MaxBody - 10, true, http.StatusOK},
	} {
		got = 0
		var rd io.Reader = strings.NewReader(body(c.size))
		if c.chunked {
			rd = io.MultiReader(rd) // hides the length: sent chunked
		}
		req, _ := http.NewRequest(http.MethodPost, srv.URL, rd)
		req.Header.Set("Content-Type", "application/json")
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		var m Message
		_ = json.NewDecoder(res.Body).Decode(&m)
		res.Body.Close()
		if res.StatusCode != c.want {
			t.Errorf("%s: %d %q, want %d", c.name, res.StatusCode, m.Message, c.want)
		}
		if c.want == http.StatusRequestEntityTooLarge && m.Message != MsgTooLarge {
			t.Errorf("%s: message %q", c.name, m.Message)
		}
		if c.want == http.StatusOK && got != c.size {
			t.Errorf("%s: the handler read %d bytes of padding, want %d", c.name, got, c.size)
		}
	}
}
