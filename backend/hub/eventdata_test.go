package hub_test

import (
	"encoding/json"
	"testing"

	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestEventPayloadsReadBackTyped(t *testing.T) {
	raw := func(v any) json.RawMessage { b, _ := json.Marshal(v); return b }
	ended := hub.Job{ID: "job-1", Kind: hub.KindAsk, State: "done", Detail: &service.JobDetail{Ended: true, Session: "s1"}}
	ap := hub.Approval{JobID: "job-2", ClientID: "c_a", ClientName: "agent", Kind: hub.KindAsk, Summary: "hello"}
	cases := []struct {
		name       string
		ev         hub.Event
		job, run   bool
		approval   bool
		runKind    string
		partialTxt string
	}{
		{"the job's view at its end is a job", hub.Event{Type: hub.EventRunUpdate, JobID: "job-1", Data: raw(ended)}, true, false, false, "", ""},
		{"a state the run entered is a run event", hub.Event{Type: hub.EventRunUpdate, JobID: "job-1", Data: raw(service.RunEvent{Session: "s1", Kind: "state", State: "streaming"})}, false, true, false, "state", ""},
		{"the answer so far is a run event with its text", hub.Event{Type: hub.EventRunPartial, JobID: "job-1", Data: raw(service.RunEvent{Session: "s1", Kind: "partial", Partial: &service.Partial{Text: "Hel"}})}, false, true, false, "partial", "Hel"},
		{"garbage is neither", hub.Event{Type: hub.EventRunUpdate, JobID: "job-1", Data: json.RawMessage(`[1]`)}, false, false, false, "", ""},
		{"an approval request is an approval, not a run event", hub.Event{Type: hub.EventApprovalRequested, JobID: "job-2", Data: raw(ap)}, false, false, true, "", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			je, ok := tc.ev.JobEvent()
			if ok != (tc.job || tc.run) || (je.Job != nil) != tc.job || (je.Run != nil) != tc.run {
				t.Fatalf("JobEvent = %+v, %v", je, ok)
			}
			if tc.job && (je.Job.ID != "job-1" || !je.Job.Ended()) {
				t.Fatalf("job %+v", je.Job)
			}
			if tc.run && (je.Run.Kind != tc.runKind || (tc.partialTxt != "" && je.Run.Partial.Text != tc.partialTxt)) {
				t.Fatalf("run %+v", je.Run)
			}
			got, ok := tc.ev.Approval()
			if ok != tc.approval || (ok && got != ap) {
				t.Fatalf("Approval = %+v, %v", got, ok)
			}
		})
	}
}
