package mcpconfig

import (
	"os/exec"
	"strings"
	"testing"
)

// TestMCPConfigIsALeaf: the CLI and the desktop both import it, so it
// depends on no other package of Ferry.
func TestMCPConfigIsALeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 3 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/ferrydesk/ferry/") && d != "github.com/ferrydesk/ferry/backend/mcpconfig" {
			t.Errorf("mcpconfig depends on %s", d)
		}
	}
}
