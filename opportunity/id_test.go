package opportunity

import (
	"regexp"
	"testing"
)

var uuidRE = regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-[45][0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`)

func TestIDs(t *testing.T) {
	a, b := DerivedID("nordata/u1/req-1"), DerivedID("nordata/u1/req-1")
	if a != b || !uuidRE.MatchString(a) || a[14] != '5' {
		t.Errorf("derived ids %s %s", a, b)
	}
	if DerivedID("nordata/u1/req-2") == a {
		t.Error("different keys gave the same id")
	}
	n1, n2 := NewID(), NewID()
	if n1 == n2 || !uuidRE.MatchString(n1) || n1[14] != '4' {
		t.Errorf("random ids %s %s", n1, n2)
	}
}
