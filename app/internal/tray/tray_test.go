package tray

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestTrayListsTheNewestRuns(t *testing.T) {
	var listed []service.SessionSummary
	for i, st := range []job.State{job.StateDone, job.StateFailed, job.StateStreaming, job.StateCancelled, job.StateDone, job.StateDone, job.StateDone} {
		run := &job.Session{ID: fmt.Sprint("r", i), Site: "chatgpt", State: st,
			Prompt: "write a haiku about river ferries crossing in the early morning fog"}
		listed = append(listed, service.SessionSummary{ID: run.ID, Extra: &service.SessionExtra{Listed: service.Listed{Session: run}}})
	}
	runs := Entries(append([]service.SessionSummary{{}}, listed...), func(id string) string { return map[string]string{"chatgpt": "ChatGPT"}[id] })
	if len(runs) != Recent {
		t.Fatalf("%d entries, want %d", len(runs), Recent)
	}
	want := []string{"✓", "✗", "…", "–", "✓"}
	for i, r := range runs {
		if r.ID != fmt.Sprint("r", i) || !strings.HasPrefix(r.Label, want[i]+" ChatGPT · write a haiku") {
			t.Errorf("entry %d = %+v", i, r)
		}
		if len([]rune(r.Label)) > 60 {
			t.Errorf("entry %d is %d characters long", i, len([]rune(r.Label)))
		}
	}
}

func TestTrayTitlesACodeRunByItsTask(t *testing.T) {
	run := &job.Session{ID: "c1", Site: "chatgpt", State: job.StateDone, Task: "build a greeter",
		Prompt: "TASK\nbuild a greeter\n\nOUTPUT CONTRACT: code"}
	got := Entries([]service.SessionSummary{{ID: run.ID, Extra: &service.SessionExtra{Listed: service.Listed{Session: run}}}}, func(id string) string { return id })
	if len(got) != 1 || got[0].Label != "✓ chatgpt · build a greeter" {
		t.Fatalf("entries %+v, want the task as the title", got)
	}
}
