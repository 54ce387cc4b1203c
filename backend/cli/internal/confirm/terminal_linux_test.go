package confirm

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/cli/internal/confirm/ptytest"
)

func TestAPseudoTerminalIsATerminal(t *testing.T) {
	_, tty := ptytest.Open(t)
	if !Terminal(tty) {
		t.Fatal("the pseudo-terminal's own end is not taken for a terminal")
	}
}
