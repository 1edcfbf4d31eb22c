package testenv

import "testing"

// TestMain runs the tests, then stops every service they started.
func TestMain(m *testing.M) { Main(m) }
