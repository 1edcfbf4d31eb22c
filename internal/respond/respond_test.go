package respond

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
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
