package core

import (
	"fmt"
	"os"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
)

// TestMain gives the package's tests a home of their own and none of the
// directories the environment may name: each test opens its core on a data
// directory of its own, which is then also its config directory, so tests
// run side by side (t.Parallel) without setting the environment and never
// reach the real user's directories.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "ferry-core-test-home")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Setenv("HOME", home)
	for _, v := range []string{config.EnvConfigDir, config.EnvDataDir, "XDG_CONFIG_HOME", "XDG_DATA_HOME"} {
		os.Unsetenv(v)
	}
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}
