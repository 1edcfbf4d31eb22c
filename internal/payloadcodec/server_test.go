package payloadcodec_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"

	"oportuna/internal/payloadcodec"
)

const uiOrigin = "http://127.0.0.1:8233"

func codecServer(t *testing.T) (*httptest.Server, *payloadcodec.Codec) {
	t.Helper()
	k := newKey(t, "k1")
	worker := mustCodec(t, payloadcodec.Options{}, k)
	srv := httptest.NewServer(payloadcodec.Handler(mustCodec(t, payloadcodec.Options{AcceptPlaintext: true}, k),
		payloadcodec.ServerOptions{AllowedOrigins: []string{"http://localhost:8233", uiOrigin}, Namespace: "oportuna"}))
	t.Cleanup(srv.Close)
	return srv, worker
}

func post(t *testing.T, url string, headers map[string]string, body []byte) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func TestCodecServerDecodesForTheUIOriginOnly(t *testing.T) {
	srv, worker := codecServer(t)
	p, err := worker.DataConverter().ToPayload(ana)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := json.Marshal(commonpb.Payloads{Payloads: []*commonpb.Payload{p}})

	resp, out := post(t, srv.URL+"/decode", map[string]string{"Origin": uiOrigin, "X-Namespace": "oportuna"}, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("decode for the UI: %d %s", resp.StatusCode, out)
	}
	if got := resp.Header.Get("Access-Control-Allow-Origin"); got != uiOrigin {
		t.Fatalf("Access-Control-Allow-Origin %q, want %q", got, uiOrigin)
	}
	var decoded commonpb.Payloads
	if err := json.Unmarshal([]byte(out), &decoded); err != nil || len(decoded.Payloads) != 1 ||
		!strings.Contains(string(decoded.Payloads[0].Data), ana.Email) {
		t.Fatalf("decoded %s (%v)", out, err)
	}
	// The namespace in the path form, without header (the CLI's --codec-endpoint).
	if resp, out := post(t, srv.URL+"/oportuna/decode", nil, body); resp.StatusCode != http.StatusOK {
		t.Fatalf("decode by path namespace: %d %s", resp.StatusCode, out)
	}

	for name, c := range map[string]struct {
		path    string
		headers map[string]string
		want    int
	}{
		"another site's page":    {"/decode", map[string]string{"Origin": "https://evil.example"}, http.StatusForbidden},
		"another namespace":      {"/decode", map[string]string{"Origin": uiOrigin, "X-Namespace": "other"}, http.StatusForbidden},
		"encode (forging input)": {"/encode", map[string]string{"Origin": uiOrigin}, http.StatusForbidden},
		"an unknown path":        {"/a/b/decode", nil, http.StatusNotFound},
	} {
		resp, out := post(t, srv.URL+c.path, c.headers, body)
		if resp.StatusCode != c.want || strings.Contains(out, ana.Email) {
			t.Errorf("%s: %d %q, want %d without the data", name, resp.StatusCode, out, c.want)
		}
		if name == "another site's page" && resp.Header.Get("Access-Control-Allow-Origin") != "" {
			t.Errorf("%s: CORS allowed", name)
		}
	}
	// A form post (no preflight) cannot reach the codec.
	req, _ := http.NewRequest(http.MethodPost, srv.URL+"/decode", bytes.NewReader(body))
	req.Header.Set("Content-Type", "text/plain")
	resp, err = http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUnsupportedMediaType {
		t.Fatalf("text/plain post: %d", resp.StatusCode)
	}
}

func TestCodecServerPreflight(t *testing.T) {
	srv, _ := codecServer(t)
	for origin, want := range map[string]int{uiOrigin: http.StatusNoContent, "https://evil.example": http.StatusForbidden} {
		req, _ := http.NewRequest(http.MethodOptions, srv.URL+"/decode", nil)
		req.Header.Set("Origin", origin)
		req.Header.Set("Access-Control-Request-Method", "POST")
		req.Header.Set("Access-Control-Request-Headers", "content-type,x-namespace")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != want {
			t.Errorf("preflight from %s: %d, want %d", origin, resp.StatusCode, want)
		}
		if want == http.StatusNoContent && (!strings.Contains(strings.ToLower(resp.Header.Get("Access-Control-Allow-Headers")), "x-namespace") ||
			resp.Header.Get("Access-Control-Allow-Origin") != uiOrigin) {
			t.Errorf("preflight headers %v", resp.Header)
		}
	}
}
