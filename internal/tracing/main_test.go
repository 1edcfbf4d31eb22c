package tracing_test

import (
	"testing"

	"oportuna/internal/testenv"
)

// TestMain runs the tests with the default logger discarding, then stops
// the services testenv started for them.
func TestMain(m *testing.M) { testenv.MainQuiet(m) }
