package opportunity

import (
	"crypto/rand"
	"crypto/sha256"
	"fmt"
)

// DerivedID is a stable UUID (version 5 layout) derived from a key, so that the
// same request or demo item always lands on the same opportunity and workflow.
func DerivedID(key string) string {
	h := sha256.Sum256([]byte(key))
	return formatUUID(h[:16])
}

// NewID is a random UUID (version 4).
func NewID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func formatUUID(b []byte) string {
	b[6] = b[6]&0x0f | 0x50
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// ValidID reports whether s is a UUID in its 36-character text form, the form
// of every id the portal stores: a lookup by an id that is not one finds
// nothing, and never reaches PostgreSQL's uuid cast (an error there).
func ValidID(s string) bool {
	if len(s) != 36 {
		return false
	}
	for i, c := range s {
		switch {
		case i == 8 || i == 13 || i == 18 || i == 23:
			if c != '-' {
				return false
			}
		case (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'):
		default:
			return false
		}
	}
	return true
}
