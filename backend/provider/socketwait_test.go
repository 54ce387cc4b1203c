package provider

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/stream"
)

// TestAHandedOffTurnLeavesTheSocketOnlyAfterThePageWouldHave: the DOM takes
// over a handed-off turn only when the page's socket stays silent longer
// than the page itself waits for it.
func TestAHandedOffTurnLeavesTheSocketOnlyAfterThePageWouldHave(t *testing.T) {
	handedOff := stream.Result{Handoff: true}
	cases := []struct {
		name string
		ss   streamState
		want bool
	}{
		{"a turn not handed off", streamState{ended: true, socketQuiet: time.Hour}, false},
		{"the response still open", streamState{res: handedOff, socketQuiet: time.Hour}, false},
		{"no item yet, within the first wait", streamState{res: handedOff, ended: true, socketQuiet: socketFirstSilence - time.Second}, false},
		{"no item after the first wait", streamState{res: handedOff, ended: true, socketQuiet: socketFirstSilence + time.Second}, true},
		{"items coming, a pause shorter than the page's", streamState{res: handedOff, ended: true, socketItems: 4, socketQuiet: socketSilence - time.Second}, false},
		{"items stopped longer than the page waits", streamState{res: handedOff, ended: true, socketItems: 4, socketQuiet: socketSilence + time.Second}, true},
	}
	for _, tc := range cases {
		if got := socketLost(tc.ss); got != tc.want {
			t.Errorf("%s: socketLost = %v, want %v", tc.name, got, tc.want)
		}
	}
}
