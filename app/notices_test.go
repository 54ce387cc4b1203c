package app

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestNoticesForHubEvents(t *testing.T) {
	sessions := map[string]*job.Session{
		"done":  {ID: "done", Site: "chatgpt", State: job.StateDone, Answer: "Boats cross\n the   water"},
		"fail":  {ID: "fail", Site: "claude", State: job.StateFailed, Error: errs.New(errs.ComposerNotFound, "no composer on the page")},
		"check": {ID: "check", Site: "chatgpt", State: job.StateFailed, Error: errs.New(errs.CloudflareChallenge, "a Cloudflare check blocks the page")},
	}
	lookup := func(_ context.Context, id string) (*service.Run, error) {
		if s, ok := sessions[id]; ok {
			return s, nil
		}
		return nil, errs.New(errs.SessionNotFound, "no session %s", id)
	}
	ended := func(session, state string, env *errs.Envelope) hub.Event {
		j := map[string]any{"id": "job-" + session, "state": state, "error": env,
			"detail": map[string]any{"session": session, "spec": map[string]any{"site": "chatgpt"}}}
		return wireEvent(hub.EventRunUpdate, "job-"+session, j)
	}
	stateEv := func(session, state string) hub.Event {
		return wireEvent(hub.EventRunUpdate, "", job.Event{Session: session, Kind: job.EventState, State: job.State(state)})
	}
	// The window's names for the sites (issue 19: no lowercase ids).
	names := func(id string) string { return map[string]string{"chatgpt": "ChatGPT", "claude": "Claude"}[id] }
	apData, _ := json.Marshal(hub.Approval{JobID: "j1", ClientName: "codex", Kind: hub.KindAsk, Site: "chatgpt", Summary: "refactor the parser"})
	forged, _ := json.Marshal(hub.Approval{JobID: "j2", ClientName: "codex", Kind: hub.KindAsk, Site: "chatgpt", Summary: "pay\u202eredro\u202c now\u001b[8m hidden"})
	cases := []struct {
		name    string
		ev      hub.Event
		want    bool
		summary string
		body    string
		target  string
		urgent  bool
	}{
		{"a finished run says its answer is ready, on one line", ended("done", "done", nil), true, "Answer ready · ChatGPT", "Boats cross the water", "done", false},
		{"a failed run says why", ended("fail", "failed", nil), true, "Run failed · Claude", "no composer on the page", "fail", false},
		{"a check on the site asks for the user", ended("check", "failed", nil), true, "Ferry needs you · ChatGPT", "solve the check in the browser window", "check", true},
		{"a run that failed before it had a session still says why", ended("", "failed", errs.New(errs.BrowserNotFound, "no browser answers at 127.0.0.1:1")), true, "Run failed · ChatGPT", "no browser answers", "", false},
		{"an approval asks for a decision", wireEvent(hub.EventApprovalRequested, "", json.RawMessage(apData)), true, "Approval needed", "codex asks to send a prompt on chatgpt: refactor the parser", "", true},
		{"an approval's bidi override and escape show as escapes", wireEvent(hub.EventApprovalRequested, "", json.RawMessage(forged)), true, "Approval needed", `codex asks to send a prompt on chatgpt: pay\u202eredro\u202c now\x1b[8m hidden`, "", true},
		{"a run still going says nothing", ended("done", "streaming", nil), false, "", "", "", false},
		{"a cancelled run says nothing", ended("done", "cancelled", nil), false, "", "", "", false},
		{"a job the user rejected says nothing", ended("", "failed", errs.New(errs.ApprovalRejected, "rejected")), false, "", "", "", false},
		{"the pipeline's own state events are not announced", stateEv("done", "done"), false, "", "", "", false},
		{"a partial answer says nothing", wireEvent(hub.EventRunPartial, "", json.RawMessage(`{"session":"done","kind":"partial"}`)), false, "", "", "", false},
		{"a run the history lacks still gets a notice", ended("gone", "done", nil), true, "Answer ready · ChatGPT", "open it in Ferry", "gone", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, ok := notify.NoticeFor(context.Background(), ownerEventOf(c.ev), lookup, names)
			if ok != c.want {
				t.Fatalf("notice %v (%+v), want %v", ok, n, c.want)
			}
			if !ok {
				return
			}
			if n.Summary != c.summary || !strings.Contains(n.Body, c.body) || n.Target != c.target || n.Urgent != c.urgent {
				t.Errorf("notice %+v, want summary %q body ~%q target %q urgent %v", n, c.summary, c.body, c.target, c.urgent)
			}
		})
	}
}

// wireEvent is an event of the owner's stream as a client reads it off the
// wire: type, job and the JSON of data.
func wireEvent(typ, jobID string, data any) hub.Event {
	b, _ := json.Marshal(map[string]any{"type": typ, "jobId": jobID, "data": data})
	var ev hub.Event
	_ = json.Unmarshal(b, &ev)
	return ev
}
