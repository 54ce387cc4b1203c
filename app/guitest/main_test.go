//go:build gui

package guitest

import (
	"os"
	"testing"
)

// TestMain stops the shared frontend browser and removes the binaries the
// tests built (about 60 MB each).
func TestMain(m *testing.M) {
	code := m.Run()
	closeFront()
	if binDir != "" {
		_ = os.RemoveAll(binDir)
	}
	os.Exit(code)
}
