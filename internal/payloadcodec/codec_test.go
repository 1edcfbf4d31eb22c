package payloadcodec_test

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	commonpb "go.temporal.io/api/common/v1"
	"go.temporal.io/sdk/converter"

	"oportuna/internal/payloadcodec"
)

func newKey(t *testing.T, id string) payloadcodec.Key {
	t.Helper()
	b := make([]byte, payloadcodec.KeySize)
	if _, err := rand.Read(b); err != nil {
		t.Fatal(err)
	}
	return payloadcodec.Key{ID: id, Secret: b}
}

func mustCodec(t *testing.T, opts payloadcodec.Options, keys ...payloadcodec.Key) *payloadcodec.Codec {
	t.Helper()
	c, err := payloadcodec.New(keys, opts)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

type contact struct{ Name, Email, Phone string }

var ana = contact{"Ana Cliente", "ana@cliente.com.br", "+55 11 99999-0000"}

func TestEncryptedPayloadHidesTheValueAndRoundTrips(t *testing.T) {
	c := mustCodec(t, payloadcodec.Options{}, newKey(t, "k1"))
	dc := c.DataConverter()
	p, err := dc.ToPayload(ana)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(p.Metadata[converter.MetadataEncoding]); got != payloadcodec.Encoding {
		t.Fatalf("encoding %q, want %q", got, payloadcodec.Encoding)
	}
	if got := string(p.Metadata[payloadcodec.MetadataKeyID]); got != "k1" {
		t.Fatalf("key id %q, want k1", got)
	}
	raw, _ := p.Marshal()
	for _, field := range []string{ana.Name, ana.Email, ana.Phone, "json/plain"} {
		if bytes.Contains(raw, []byte(field)) {
			t.Errorf("the encrypted payload holds %q in clear", field)
		}
	}
	var back contact
	if err := dc.FromPayload(p, &back); err != nil {
		t.Fatal(err)
	}
	if back != ana {
		t.Fatalf("decoded %+v, want %+v", back, ana)
	}
	// Two encodings of one value differ (a fresh nonce each time).
	p2, _ := dc.ToPayload(ana)
	if bytes.Equal(p.Data, p2.Data) {
		t.Fatal("two encryptions of one value are identical: the nonce is reused")
	}
}

func TestRotationEncryptsWithTheNewestKeyAndReadsOldOnes(t *testing.T) {
	k1, k2 := newKey(t, "2025-01"), newKey(t, "2026-06")
	old := mustCodec(t, payloadcodec.Options{}, k1)
	oldPayload, err := old.DataConverter().ToPayload(ana)
	if err != nil {
		t.Fatal(err)
	}
	rotated := mustCodec(t, payloadcodec.Options{}, k2, k1) // newest first
	newPayload, err := rotated.DataConverter().ToPayload(ana)
	if err != nil {
		t.Fatal(err)
	}
	if got := string(newPayload.Metadata[payloadcodec.MetadataKeyID]); got != "2026-06" {
		t.Fatalf("new payloads use key %q, want the newest 2026-06", got)
	}
	for name, p := range map[string]*commonpb.Payload{"old": oldPayload, "new": newPayload} {
		var back contact
		if err := rotated.DataConverter().FromPayload(p, &back); err != nil || back != ana {
			t.Errorf("%s payload: %+v, %v", name, back, err)
		}
	}
	// Once the old key is removed, its payloads no longer decrypt (and say why).
	var back contact
	err = mustCodec(t, payloadcodec.Options{}, k2).DataConverter().FromPayload(oldPayload, &back)
	if err == nil || !strings.Contains(err.Error(), `"2025-01"`) {
		t.Fatalf("a payload of a removed key: %v, want an error naming the key", err)
	}
}

func TestPlaintextIsRefusedUnlessAccepted(t *testing.T) {
	k := newKey(t, "k1")
	plain, err := converter.GetDefaultDataConverter().ToPayload(ana)
	if err != nil {
		t.Fatal(err)
	}
	var back contact
	err = mustCodec(t, payloadcodec.Options{}, k).DataConverter().FromPayload(plain, &back)
	if !errors.Is(err, payloadcodec.ErrPlaintext) {
		t.Fatalf("a plaintext payload: %v, want ErrPlaintext", err)
	}
	if back != (contact{}) {
		t.Fatalf("a refused payload filled %+v", back)
	}
	if err := mustCodec(t, payloadcodec.Options{AcceptPlaintext: true}, k).DataConverter().FromPayload(plain, &back); err != nil || back != ana {
		t.Fatalf("with AcceptPlaintext: %+v, %v", back, err)
	}
}

func TestTamperedPayloadIsRefused(t *testing.T) {
	k1, k2 := newKey(t, "k1"), newKey(t, "k2")
	c := mustCodec(t, payloadcodec.Options{}, k1, k2)
	p, _ := c.DataConverter().ToPayload(ana)
	flipped := &commonpb.Payload{Metadata: p.Metadata, Data: append([]byte(nil), p.Data...)}
	flipped.Data[len(flipped.Data)-1] ^= 1
	renamed := &commonpb.Payload{Metadata: map[string][]byte{}, Data: p.Data}
	for k, v := range p.Metadata {
		renamed.Metadata[k] = v
	}
	renamed.Metadata[payloadcodec.MetadataKeyID] = []byte("k2")
	for name, bad := range map[string]*commonpb.Payload{"a flipped bit": flipped, "another key id": renamed} {
		if _, err := c.Decode([]*commonpb.Payload{bad}); err == nil {
			t.Errorf("%s: decoded", name)
		}
	}
}

func TestParseKeys(t *testing.T) {
	k := base64.StdEncoding.EncodeToString(bytes.Repeat([]byte{7}, 32))
	keys, err := payloadcodec.ParseKeys("new:" + k + ", old:" + strings.TrimRight(base64.URLEncoding.EncodeToString(bytes.Repeat([]byte{9}, 32)), "="))
	if err != nil || len(keys) != 2 || keys[0].ID != "new" || keys[1].ID != "old" || keys[1].Secret[0] != 9 {
		t.Fatalf("ParseKeys: %+v, %v", keys, err)
	}
	for _, bad := range []string{
		"nokey", "a:" + k + ",a:" + k, "a:" + base64.StdEncoding.EncodeToString([]byte("short")),
		"a b:" + k, "a:not*base64",
	} {
		if _, err := payloadcodec.ParseKeys(bad); err == nil {
			t.Errorf("ParseKeys(%q) accepted", bad)
		}
	}
	dir := t.TempDir()
	path := filepath.Join(dir, "keys")
	if err := os.WriteFile(path, []byte("# rotated 2026-06\nk2:"+k+"\n\nk1:"+k+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	keys, err = payloadcodec.ReadKeyFile(path)
	if err != nil || len(keys) != 2 || keys[0].ID != "k2" {
		t.Fatalf("ReadKeyFile: %+v, %v", keys, err)
	}
	_ = os.WriteFile(path, []byte("# nothing\n"), 0o600)
	if _, err := payloadcodec.ReadKeyFile(path); err == nil {
		t.Fatal("an empty key file was accepted")
	}
}
