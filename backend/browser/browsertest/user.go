package browsertest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/proctree"
)

// StartUser starts the Chromium at binary the way a user would with remote
// debugging on, outside Ferry, and returns its profile directory once
// DevToolsActivePort is written; the browser is killed when the test ends.
func StartUser(t *testing.T, binary string) (profile string, cmd *exec.Cmd) {
	t.Helper()
	profile = t.TempDir()
	cmd = exec.Command(binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	tree, err := proctree.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tree.Kill()
		_ = cmd.Wait()
		tree.Release()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil && strings.Count(string(b), "\n") >= 1 {
			return profile, cmd
		}
		if time.Now().After(deadline) {
			t.Fatal("the user's browser wrote no DevToolsActivePort")
		}
		time.Sleep(50 * time.Millisecond)
	}
}
