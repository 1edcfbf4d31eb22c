// Package oportuna holds what belongs to the whole repository: its version.
package oportuna

import (
	_ "embed"
	"strings"
)

//go:embed VERSION
var version string

// Version is the application version shown on the login page.
func Version() string { return strings.TrimSpace(version) }
