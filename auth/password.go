package auth

import (
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
)

// The spec's messages for the password rules (spec §5 "Password").
const (
	MsgWeakPassword     = "A senha deve conter no mínimo 8 caracteres, incluindo ao menos uma letra maiúscula, um caracter especial e um número."
	MsgPasswordMismatch = "As senhas não conferem!"
)

var (
	ErrWeakPassword     error = Message(MsgWeakPassword)
	ErrPasswordMismatch error = Message(MsgPasswordMismatch)
)

// Message is an error whose text is shown to the user as it is (pt-BR, a
// sentence with its capital and full stop), unlike an error of the program.
type Message string

func (m Message) Error() string { return string(m) }

// passwordSpecials are the only non-alphanumeric characters a password may hold.
const passwordSpecials = "@$!%*?&"

// CheckPassword applies the spec's rule: at least 8 characters, with a lowercase
// and an uppercase letter, a digit and one of @$!%*?&, and only those characters.
func CheckPassword(pw string) error {
	if len(pw) < 8 {
		return ErrWeakPassword
	}
	var lower, upper, digit, special bool
	for _, c := range pw {
		switch {
		case c >= 'a' && c <= 'z':
			lower = true
		case c >= 'A' && c <= 'Z':
			upper = true
		case c >= '0' && c <= '9':
			digit = true
		case strings.ContainsRune(passwordSpecials, c):
			special = true
		default:
			return ErrWeakPassword
		}
	}
	if !lower || !upper || !digit || !special {
		return ErrWeakPassword
	}
	return nil
}

// argon2id parameters (OWASP's minimum: 19 MiB, 2 passes, 1 lane).
const (
	argonTime    = 2
	argonMemory  = 19 * 1024
	argonThreads = 1
	argonKeyLen  = 32
	argonSaltLen = 16
)

// HashPassword returns an argon2id hash in the PHC string format.
func HashPassword(pw string) (string, error) {
	salt := make([]byte, argonSaltLen)
	if _, err := rand.Read(salt); err != nil {
		return "", err
	}
	key := argon2.IDKey([]byte(pw), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	b64 := base64.RawStdEncoding
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s",
		argon2.Version, argonMemory, argonTime, argonThreads, b64.EncodeToString(salt), b64.EncodeToString(key)), nil
}

// VerifyPassword reports whether pw matches the PHC-encoded argon2id hash.
func VerifyPassword(encoded, pw string) bool {
	parts := strings.Split(encoded, "$")
	if len(parts) != 6 || parts[1] != "argon2id" {
		return false
	}
	var version int
	var mem, iters uint32
	var threads uint8
	if _, err := fmt.Sscanf(parts[2], "v=%d", &version); err != nil || version != argon2.Version {
		return false
	}
	if _, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &mem, &iters, &threads); err != nil || threads == 0 {
		return false
	}
	b64 := base64.RawStdEncoding
	salt, err := b64.DecodeString(parts[4])
	if err != nil {
		return false
	}
	want, err := b64.DecodeString(parts[5])
	if err != nil || len(want) == 0 {
		return false
	}
	got := argon2.IDKey([]byte(pw), salt, iters, mem, threads, uint32(len(want)))
	return subtle.ConstantTimeCompare(got, want) == 1
}

// dummyHash is verified against when the user does not exist, so that a login
// for an unknown e-mail costs the same time as a wrong password.
var dummyHash, _ = HashPassword("dummy-Password1!")
