package payloadcodec_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

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

// TestFailuresAreEncodedAndTheCodecServerDecodesThemForTheUI: an error's
// message and stack trace (and its cause's), which may quote a customer's
// CNPJ, leave the converter encrypted ("Encoded failure" in clear); the
// Temporal UI shows them through the codec server's /decode, and a client with
// the converter reads the error back whole.
func TestFailuresAreEncodedAndTheCodecServerDecodesThemForTheUI(t *testing.T) {
	srv, worker := codecServer(t)
	const secret = "no Account with CNPJ__c 44.555.666/9999-52"
	err := temporal.NewNonRetryableApplicationError("crm: customer not found: "+secret, "CRMCustomerNotFound", errors.New(secret))
	f := worker.FailureConverter().ErrorToFailure(err)
	raw, _ := f.Marshal()
	if bytes.Contains(raw, []byte("44.555.666")) || f.GetMessage() != "Encoded failure" || f.GetCause().GetMessage() != "Encoded failure" {
		t.Fatalf("failure in clear: message %q, cause %q", f.GetMessage(), f.GetCause().GetMessage())
	}
	if f.GetApplicationFailureInfo().GetType() != "CRMCustomerNotFound" {
		t.Errorf("type %q: the API maps errors by type, it must stay readable", f.GetApplicationFailureInfo().GetType())
	}
	body, _ := json.Marshal(commonpb.Payloads{Payloads: []*commonpb.Payload{f.GetEncodedAttributes()}})
	resp, out := post(t, srv.URL+"/decode", map[string]string{"Origin": uiOrigin, "X-Namespace": "oportuna"}, body)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("decode: %d %s", resp.StatusCode, out)
	}
	var decoded commonpb.Payloads
	if err := json.Unmarshal([]byte(out), &decoded); err != nil || len(decoded.Payloads) != 1 {
		t.Fatalf("decoded %s: %v", out, err)
	}
	var attrs struct {
		Message string `json:"message"`
	}
	if err := json.Unmarshal(decoded.Payloads[0].GetData(), &attrs); err != nil || !strings.Contains(attrs.Message, secret) {
		t.Fatalf("the UI would show %s (%v)", decoded.Payloads[0].GetData(), err)
	}
	before := proto.Clone(f)
	back := worker.FailureConverter().FailureToError(f)
	// Reading it leaves the failure as it was (a local activity's marker
	// command carries the very failure the workflow reads back).
	if f.GetMessage() != "Encoded failure" || !proto.Equal(before, f) {
		t.Errorf("FailureToError decoded the failure in place: message %q", f.GetMessage())
	}
	var app *temporal.ApplicationError
	if !errors.As(back, &app) || !strings.Contains(app.Error(), secret) || app.Type() != "CRMCustomerNotFound" {
		t.Fatalf("read back: %v", back)
	}
}

// TestCodecServerEncodesNothingForTheCLIsQuery: `temporal workflow query
// --codec-endpoint` asks /encode for the query's arguments even when there are
// none ({}). Encoding nothing forges nothing, so that answer is given with
// encode off; a request carrying any payload is still refused.
func TestCodecServerEncodesNothingForTheCLIsQuery(t *testing.T) {
	srv, _ := codecServer(t)
	for _, body := range []string{`{}`, `{"payloads":[]}`} {
		resp, out := post(t, srv.URL+"/encode", nil, []byte(body))
		var ps commonpb.Payloads
		if resp.StatusCode != http.StatusOK || protojson.Unmarshal([]byte(out), &ps) != nil || len(ps.GetPayloads()) != 0 {
			t.Errorf("encode %s: %d %q, want 200 with no payload", body, resp.StatusCode, out)
		}
	}
	plain, _ := converter.GetDefaultDataConverter().ToPayload(map[string]any{"approve": true})
	forged, _ := protojson.Marshal(&commonpb.Payloads{Payloads: []*commonpb.Payload{plain}})
	for name, body := range map[string][]byte{"a payload": forged, "not JSON": []byte(`{"payloads":`)} {
		if resp, out := post(t, srv.URL+"/encode", nil, body); resp.StatusCode != http.StatusForbidden || strings.Contains(out, "binary/encrypted") {
			t.Errorf("encode %s: %d %q, want 403", name, resp.StatusCode, out)
		}
	}
}
