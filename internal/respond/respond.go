// Package respond writes JSON answers and reads JSON bodies for the HTTP handlers.
package respond

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
)

// MaxBody bounds every JSON request body.
const MaxBody = 1 << 20

// Message is the body of every error answer.
type Message struct {
	Message string   `json:"message"`
	Errors  []string `json:"errors,omitempty"`
}

// Generic is the answer to a fault of ours.
const Generic = "Houve um erro. Tente mais tarde!"

// JSON writes v with the status.
func JSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if v != nil {
		_ = json.NewEncoder(w).Encode(v)
	}
}

// Error writes {"message": msg} with the status.
func Error(w http.ResponseWriter, status int, msg string) {
	JSON(w, status, Message{Message: msg})
}

// StatusClientClosed is recorded for a request whose client went away before
// the answer (nginx's 499): not a fault of ours, so neither an error log nor a 5xx.
const StatusClientClosed = 499

// Internal logs err and answers 500 with the generic pt-BR message; when the
// client has already gone (its request context is cancelled) it only notes it.
func Internal(w http.ResponseWriter, r *http.Request, err error) {
	if errors.Is(r.Context().Err(), context.Canceled) {
		slog.InfoContext(r.Context(), "client closed the request", "method", r.Method, "path", r.URL.Path, "err", err)
		Error(w, StatusClientClosed, Generic)
		return
	}
	slog.ErrorContext(r.Context(), "request failed", "method", r.Method, "path", r.URL.Path, "err", err)
	Error(w, http.StatusInternalServerError, Generic)
}

// ErrBadBody is returned by Decode for a body that is not the expected JSON.
var ErrBadBody = errors.New("corpo da requisição inválido")

// Decode reads a JSON body into v; any failure is ErrBadBody (answer 400).
func Decode(r *http.Request, v any) error {
	dec := json.NewDecoder(io.LimitReader(r.Body, MaxBody))
	if err := dec.Decode(v); err != nil {
		return ErrBadBody
	}
	return nil
}

// DecodeBody reads a JSON body into v; for a body that is not the expected
// JSON it answers 400 (BadBody) and reports false.
func DecodeBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if err := Decode(r, v); err != nil {
		BadBody(w)
		return false
	}
	return true
}

// MsgTooLarge answers a request body over MaxBody (413).
const MsgTooLarge = "A requisição é grande demais: o corpo pode ter até 1 MB."

// LimitBody answers 413 with MsgTooLarge for a body over MaxBody before the
// handler runs: by its Content-Length, or, for a body of unknown length
// (chunked), by reading at most MaxBody+1 bytes of it. Without it a longer body
// was cut at MaxBody by Decode and answered as invalid JSON.
func LimitBody(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch {
		case r.ContentLength > MaxBody:
			Error(w, http.StatusRequestEntityTooLarge, MsgTooLarge)
			return
		case r.ContentLength < 0 && r.Body != nil && r.Body != http.NoBody:
			b, err := io.ReadAll(io.LimitReader(r.Body, MaxBody+1))
			if err != nil {
				BadBody(w)
				return
			}
			if len(b) > MaxBody {
				Error(w, http.StatusRequestEntityTooLarge, MsgTooLarge)
				return
			}
			r.Body = io.NopCloser(bytes.NewReader(b))
		}
		next.ServeHTTP(w, r)
	})
}

// BadBody answers 400 for an unreadable body.
func BadBody(w http.ResponseWriter) {
	Error(w, http.StatusBadRequest, "Dados inválidos: o corpo da requisição não é um JSON válido.")
}
