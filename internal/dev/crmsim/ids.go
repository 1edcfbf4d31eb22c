package crmsim

import (
	"hash/fnv"
	"strings"
)

// Key prefixes of the Salesforce objects the stand-in holds.
const (
	prefixAccount        = "001"
	prefixUser           = "005"
	prefixOpportunity    = "006"
	prefixLineItem       = "00k"
	prefixPricebook      = "01s"
	prefixProduct        = "01t"
	prefixPricebookEntry = "01u"
	prefixOrg            = "00D"
)

const base62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"

// recordID makes an 18-character Salesforce-style id: the 3-character key
// prefix, "Sm", ten base-62 digits of n, and the case-checksum suffix.
func recordID(prefix string, n uint64) string {
	var digits [10]byte
	for i := 9; i >= 0; i-- {
		digits[i] = base62[n%62]
		n /= 62
	}
	id15 := prefix + "Sm" + string(digits[:])
	return id15 + checksum(id15)
}

// checksum is the 3-character suffix that makes a 15-character id case-insensitive.
func checksum(id15 string) string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ012345"
	var b strings.Builder
	for chunk := 0; chunk < 3; chunk++ {
		v := 0
		for i := 0; i < 5; i++ {
			if c := id15[chunk*5+i]; c >= 'A' && c <= 'Z' {
				v |= 1 << i
			}
		}
		b.WriteByte(alphabet[v])
	}
	return b.String()
}

// stableID is an id derived from a key, the same on every run.
func stableID(prefix, key string) string {
	h := fnv.New64a()
	_, _ = h.Write([]byte(key))
	return recordID(prefix, h.Sum64()%839299365868340224) // 62^10
}

var standardPricebookID = recordID(prefixPricebook, 1)
