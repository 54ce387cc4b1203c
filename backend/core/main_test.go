package core

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
)

// TestMain gives the package's tests a home of their own and none of the
// directories the environment may name: each test opens its core on a data
// directory of its own, which is then also its config directory, so tests
// run side by side (t.Parallel) without setting the environment and never
// reach the real user's directories. The go commands some tests run
// (layout_test.go) keep the Go toolchain's own directories and settings:
// under the test's home they would build every package again in an empty
// cache (a minute of both cores) and fetch the modules anew.
func TestMain(m *testing.M) {
	if err := keepGoDirs(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
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

// keepGoDirs pins the go command's cache, module and settings directories
// to where they are before TestMain moves HOME (each defaults to a place
// under it).
func keepGoDirs() error {
	out, err := exec.Command("go", "env", "-json", "GOCACHE", "GOMODCACHE", "GOPATH", "GOENV").Output()
	if err != nil {
		return fmt.Errorf("go env: %v", err)
	}
	var env map[string]string
	if err := json.Unmarshal(out, &env); err != nil {
		return fmt.Errorf("go env: %v", err)
	}
	for k, v := range env {
		if v != "" {
			os.Setenv(k, v)
		}
	}
	return nil
}
