package termtext

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestProgressSaysWhatAQueuedRunWaitsFor(t *testing.T) {
	t.Parallel()
	var stderr strings.Builder
	for _, ev := range []service.JobEvent{
		{Type: service.EventRunUpdate, Run: &service.RunEvent{Kind: record.EventState, State: service.StateQueued,
			Note: "waiting for the ChatGPT tab, which another run drives"}},
		{Type: service.EventRunUpdate, Run: &service.RunEvent{Kind: record.EventState, State: service.StateStarting, Note: "the tab is free"}},
		{Type: service.EventRunUpdate, Run: &service.RunEvent{Kind: record.EventState, State: record.StateResolved, Session: "run-1"}},
	} {
		Progress(&stderr, ev)
	}
	if want := "queued: waiting for the ChatGPT tab, which another run drives\nsession run-1\n"; stderr.String() != want {
		t.Fatalf("progress %q, want %q", stderr.String(), want)
	}
}
