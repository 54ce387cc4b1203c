package record

import (
	"os/exec"
	"strings"
	"testing"
)

// TestRecordIsALeaf: the pipeline, the store and every face import the
// records, so they depend on nothing of Ferry's but the error envelope and
// redaction.
func TestRecordIsALeaf(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 3 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(deps))
	}
	for _, d := range deps {
		switch d {
		case "github.com/ferrydesk/ferry/backend/record", "github.com/ferrydesk/ferry/backend/errs", "github.com/ferrydesk/ferry/backend/redact":
		default:
			if strings.HasPrefix(d, "github.com/ferrydesk/ferry/") {
				t.Errorf("record depends on %s", d)
			}
		}
	}
}
