//go:build gui

package guitest

import (
	"os"
	"testing"
)

// TestMain removes the binaries the tests built (about 60 MB each).
func TestMain(m *testing.M) {
	code := m.Run()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}
