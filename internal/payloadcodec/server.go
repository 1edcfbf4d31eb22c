package payloadcodec

import (
	"io"
	"net/http"
	"slices"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"
	"google.golang.org/protobuf/encoding/protojson"
)

// MaxRequestBytes bounds a codec-server request (the UI sends a page of
// history's payloads at a time).
const MaxRequestBytes = 8 << 20

// ServerOptions configure Handler.
type ServerOptions struct {
	// AllowedOrigins are the Temporal UI's origins (CODEC_CORS_ORIGIN), e.g.
	// http://127.0.0.1:8233: the browser origins allowed. A request carrying
	// another Origin is refused, so a page on another site, open in an
	// operator's browser, cannot use the operator's network to decrypt.
	AllowedOrigins []string
	// Namespace is the only namespace whose payloads are decoded (the
	// X-Namespace header or the path's first segment, when present).
	Namespace string
	// AllowEncode serves /encode too. Off: whoever reaches the codec server
	// could otherwise encrypt a forged update argument, which the workers
	// would then accept; the Temporal UI only needs /decode to show payloads.
	// Off, an encode request with no payload (the CLI's, for a query without
	// arguments) is still answered, with no payload: nothing is encrypted.
	AllowEncode bool
}

// Handler serves Temporal's remote codec protocol (POST [/namespace]/decode
// with {"payloads": [...]}) for the Temporal UI and the CLI's --codec-endpoint.
// The codec should accept plaintext (payloads recorded before encryption are
// then shown as they are).
func Handler(c converter.PayloadCodec, opts ServerOptions) http.Handler {
	inner := converter.NewPayloadCodecHTTPHandler(c)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Cache-Control", "no-store")
		h.Add("Vary", "Origin")
		origin := r.Header.Get("Origin")
		if origin != "" {
			if !slices.Contains(opts.AllowedOrigins, origin) {
				http.Error(w, "origin not allowed", http.StatusForbidden)
				return
			}
			h.Set("Access-Control-Allow-Origin", origin)
		}
		if r.Method == http.MethodOptions {
			if origin == "" {
				http.Error(w, "preflight without Origin", http.StatusBadRequest)
				return
			}
			h.Set("Access-Control-Allow-Methods", "POST")
			h.Set("Access-Control-Allow-Headers", "Content-Type, X-Namespace")
			h.Set("Access-Control-Max-Age", "600")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		if r.Method != http.MethodPost {
			h.Set("Allow", "POST, OPTIONS")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		path := strings.Trim(r.URL.Path, "/")
		segs := strings.Split(path, "/")
		op := segs[len(segs)-1]
		ns := r.Header.Get("X-Namespace")
		switch len(segs) {
		case 1:
		case 2:
			if ns == "" {
				ns = segs[0]
			} else if ns != segs[0] {
				http.Error(w, "namespace of the path and of X-Namespace differ", http.StatusBadRequest)
				return
			}
		default:
			http.NotFound(w, r)
			return
		}
		if opts.Namespace != "" && ns != "" && ns != opts.Namespace {
			http.Error(w, "namespace not served by this codec server", http.StatusForbidden)
			return
		}
		switch op {
		case "decode":
		case "encode":
			if !opts.AllowEncode {
				// Encoding nothing forges nothing: the CLI asks to encode a
				// query's arguments even when there are none (`temporal
				// workflow query --name state --codec-endpoint …` sends {}).
				if strings.HasPrefix(r.Header.Get("Content-Type"), "application/json") && noPayloads(w, r) {
					w.Header().Set("Content-Type", "application/json")
					_, _ = w.Write([]byte("{}"))
					return
				}
				http.Error(w, "encode is off on this codec server", http.StatusForbidden)
				return
			}
		default:
			http.NotFound(w, r)
			return
		}
		// A simple (preflight-free) cross-site POST cannot send application/json.
		if ct := r.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
			http.Error(w, "want Content-Type: application/json", http.StatusUnsupportedMediaType)
			return
		}
		r.Body = http.MaxBytesReader(w, r.Body, MaxRequestBytes)
		inner.ServeHTTP(w, r)
	})
}

// noPayloads reads an encode request's body (bounded) and reports whether it
// holds no payload at all: {} or {"payloads": []}.
func noPayloads(w http.ResponseWriter, r *http.Request) bool {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxRequestBytes))
	if err != nil {
		return false
	}
	var ps commonpb.Payloads
	return protojson.Unmarshal(body, &ps) == nil && len(ps.GetPayloads()) == 0
}
