// Package payloadcodec encrypts the payloads Temporal stores (workflow inputs
// and results, update arguments, activity inputs and results, query results,
// memos): AES-256-GCM, one random nonce per payload, the key id in the
// payload's metadata. Temporal's history then holds no customer data in clear,
// and a worker refuses plaintext arguments, so whoever reaches the Temporal
// frontend can neither read the data nor forge an update (docs/security-payloads.md).
//
// Keys rotate: payloads are encrypted with the newest key (the first one
// configured) and decrypted with whichever configured key their metadata names.
package payloadcodec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"os"
	"regexp"
	"strings"

	commonpb "go.temporal.io/api/common/v1"
	failurepb "go.temporal.io/api/failure/v1"
	"go.temporal.io/sdk/converter"
	"go.temporal.io/sdk/temporal"
	"google.golang.org/protobuf/proto"
)

// Metadata of an encrypted payload.
const (
	// Encoding is the "encoding" metadata of an encrypted payload.
	Encoding = "binary/encrypted"
	// MetadataKeyID names the key that encrypted the payload.
	MetadataKeyID = "encryption-key-id"
	// MetadataCipher names the cipher, for operators reading raw history.
	MetadataCipher = "encryption-cipher"
	cipherName     = "AES-256-GCM"
)

// KeySize is the length of a key: AES-256.
const KeySize = 32

// ErrPlaintext is the refusal of a payload that is not encrypted where an
// encrypted one is expected (e.g. an update sent by a client without the codec).
var ErrPlaintext = errors.New("payload is not encrypted: refused (every client of this namespace must use the payload codec)")

// Key is one AES-256 key and its id.
type Key struct {
	ID     string
	Secret []byte
}

var keyIDRE = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// ParseKeys reads "id:base64key,id:base64key" (newest first); commas, spaces
// and line breaks separate keys, lines starting with # are comments (the key
// file's format). Each key is 32 bytes in standard or URL base64.
func ParseKeys(s string) ([]Key, error) {
	var keys []Key
	seen := map[string]bool{}
	var lines []string
	for _, line := range strings.Split(s, "\n") {
		if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") {
			lines = append(lines, t)
		}
	}
	for _, f := range strings.FieldsFunc(strings.Join(lines, ","), func(r rune) bool { return r == ',' || r == ' ' || r == '\t' || r == '\r' }) {
		id, b64, ok := strings.Cut(f, ":")
		if !ok || !keyIDRE.MatchString(id) {
			return nil, fmt.Errorf("key %d: want id:base64key with an id of letters, digits, '.', '_' or '-'", len(keys)+1)
		}
		if seen[id] {
			return nil, fmt.Errorf("key id %q appears twice", id)
		}
		secret, err := decodeBase64(b64)
		if err != nil {
			return nil, fmt.Errorf("key %q: not base64: %w", id, err)
		}
		if len(secret) != KeySize {
			return nil, fmt.Errorf("key %q: %d bytes, want %d (e.g. `openssl rand -base64 32`)", id, len(secret), KeySize)
		}
		seen[id] = true
		keys = append(keys, Key{ID: id, Secret: secret})
	}
	return keys, nil
}

// ReadKeyFile reads keys in ParseKeys' format from a file.
func ReadKeyFile(path string) ([]Key, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	keys, err := ParseKeys(string(b))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%s holds no key", path)
	}
	return keys, nil
}

func decodeBase64(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	_, err := base64.StdEncoding.DecodeString(s)
	return nil, err
}

// Codec is a converter.PayloadCodec encrypting with AES-256-GCM.
type Codec struct {
	newest string
	aeads  map[string]cipher.AEAD
	// acceptPlaintext lets Decode pass unencrypted payloads through.
	acceptPlaintext bool
}

// Options of New.
type Options struct {
	// AcceptPlaintext passes unencrypted payloads through Decode instead of
	// refusing them: for reading histories written before encryption was on
	// (PAYLOAD_ACCEPT_PLAINTEXT, a migration setting) and for the codec server,
	// which only shows payloads. A worker with it accepts forged plaintext updates.
	AcceptPlaintext bool
}

// New is a codec encrypting with keys[0] and decrypting with any of keys.
func New(keys []Key, opts Options) (*Codec, error) {
	if len(keys) == 0 {
		return nil, errors.New("payload codec: no key")
	}
	c := &Codec{newest: keys[0].ID, aeads: map[string]cipher.AEAD{}, acceptPlaintext: opts.AcceptPlaintext}
	for _, k := range keys {
		if len(k.Secret) != KeySize {
			return nil, fmt.Errorf("payload codec: key %q: %d bytes, want %d", k.ID, len(k.Secret), KeySize)
		}
		if _, dup := c.aeads[k.ID]; dup {
			return nil, fmt.Errorf("payload codec: key id %q appears twice", k.ID)
		}
		block, err := aes.NewCipher(k.Secret)
		if err != nil {
			return nil, err
		}
		if c.aeads[k.ID], err = cipher.NewGCM(block); err != nil {
			return nil, err
		}
	}
	return c, nil
}

// NewestKeyID is the id of the key new payloads are encrypted with.
func (c *Codec) NewestKeyID() string { return c.newest }

// DataConverter is the SDK's default converter with this codec around it, for
// client.Options.DataConverter.
func (c *Codec) DataConverter() converter.DataConverter {
	return converter.NewCodecDataConverter(converter.GetDefaultDataConverter(), c)
}

// FailureConverter is the SDK's default failure converter encoding each
// failure's message and stack trace (and its causes') as a payload of this
// codec, for client.Options.FailureConverter: an error's text, which may quote
// customer data ("no Account with CNPJ__c 44.555.666/9999-52"), is encrypted in
// the history like every payload. Every client and worker of the namespace
// needs it: one without it reads "Encoded failure".
func (c *Codec) FailureConverter() converter.FailureConverter {
	return failureConverter{temporal.NewDefaultFailureConverter(temporal.DefaultFailureConverterOptions{
		DataConverter: c.DataConverter(), EncodeCommonAttributes: true})}
}

// failureConverter decodes a copy of the failure it reads. The SDK's default
// decodes the message back into the failure it is given, and for a local
// activity that failure is the one its MarkerRecorded command then carries
// (go.temporal.io/sdk v1.50.0, internal_event_handlers.go: the marker's failure
// is read back with FailureToError before the command is sent): the message
// reached the history in clear beside its encrypted copy.
type failureConverter struct{ converter.FailureConverter }

func (f failureConverter) FailureToError(failure *failurepb.Failure) error {
	if failure == nil {
		return nil
	}
	return f.FailureConverter.FailureToError(proto.Clone(failure).(*failurepb.Failure))
}

// Encode encrypts each payload (its metadata and data, serialized) with the newest key.
func (c *Codec) Encode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	aead := c.aeads[c.newest]
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		plain, err := p.Marshal()
		if err != nil {
			return nil, fmt.Errorf("payload codec: %w", err)
		}
		nonce := make([]byte, aead.NonceSize(), aead.NonceSize()+len(plain)+aead.Overhead())
		if _, err := rand.Read(nonce); err != nil {
			return nil, fmt.Errorf("payload codec: nonce: %w", err)
		}
		out[i] = &commonpb.Payload{
			Metadata: map[string][]byte{
				converter.MetadataEncoding: []byte(Encoding),
				MetadataKeyID:              []byte(c.newest),
				MetadataCipher:             []byte(cipherName),
			},
			// The key id is authenticated too: a payload cannot be moved under another key's name.
			Data: aead.Seal(nonce, nonce, plain, []byte(c.newest)),
		}
	}
	return out, nil
}

// Decode decrypts each payload with the key its metadata names. An unencrypted
// payload is refused (ErrPlaintext) unless the codec accepts plaintext.
func (c *Codec) Decode(payloads []*commonpb.Payload) ([]*commonpb.Payload, error) {
	out := make([]*commonpb.Payload, len(payloads))
	for i, p := range payloads {
		if string(p.GetMetadata()[converter.MetadataEncoding]) != Encoding {
			if !c.acceptPlaintext {
				return nil, ErrPlaintext
			}
			out[i] = p
			continue
		}
		id := string(p.GetMetadata()[MetadataKeyID])
		aead, ok := c.aeads[id]
		if !ok {
			return nil, fmt.Errorf("payload codec: payload encrypted with key %q, which is not configured (PAYLOAD_KEYS)", id)
		}
		data := p.GetData()
		if len(data) < aead.NonceSize()+aead.Overhead() {
			return nil, errors.New("payload codec: encrypted payload too short")
		}
		plain, err := aead.Open(nil, data[:aead.NonceSize()], data[aead.NonceSize():], []byte(id))
		if err != nil {
			return nil, fmt.Errorf("payload codec: payload under key %q does not decrypt (altered, or another key of that id): %w", id, err)
		}
		var dp commonpb.Payload
		if err := dp.Unmarshal(plain); err != nil {
			return nil, fmt.Errorf("payload codec: %w", err)
		}
		out[i] = &dp
	}
	return out, nil
}
