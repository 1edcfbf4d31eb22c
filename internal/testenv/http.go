package testenv

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"testing"
)

// CallJSON sends body as JSON (nil: no body) to url with the headers (name,
// value pairs) and decodes the JSON answer; a request that gets no answer
// fails the test, an answer that is not JSON decodes as an empty map.
func CallJSON(t testing.TB, method, url string, body any, headers ...string) (int, map[string]any, http.Header) {
	t.Helper()
	var rd io.Reader
	if body != nil {
		b, _ := json.Marshal(body)
		rd = bytes.NewReader(b)
	}
	req, _ := http.NewRequest(method, url, rd)
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	out := map[string]any{}
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out, res.Header
}
