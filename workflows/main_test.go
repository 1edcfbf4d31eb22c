package workflows_test

import (
	"testing"

	"oportuna/internal/testenv"
)

// TestMain runs the tests, then stops the services testenv started for them.
func TestMain(m *testing.M) { testenv.Main(m) }
