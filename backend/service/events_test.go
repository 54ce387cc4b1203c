package service_test

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestEventPayloadsReadBackTyped(t *testing.T) {
	// wire is an event as a client reads it off the stream.
	wire := func(typ, jobID string, data any) service.Event {
		b, _ := json.Marshal(map[string]any{"type": typ, "jobId": jobID, "data": data})
		var ev service.Event
		_ = json.Unmarshal(b, &ev)
		return ev
	}
	ended := service.Job{ID: "job-1", Kind: service.KindAsk, State: "done", Detail: &service.JobDetail{Ended: true, Session: "s1"}}
	ap := service.Approval{JobID: "job-2", ClientID: "c_a", ClientName: "agent", Kind: service.KindAsk, Summary: "hello"}
	cases := []struct {
		name       string
		ev         service.Event
		job, run   bool
		approval   bool
		runKind    record.EventKind
		partialTxt string
	}{
		{"the job's view at its end is a job", wire(service.EventRunUpdate, "job-1", ended), true, false, false, "", ""},
		{"a state the run entered is a run event", wire(service.EventRunUpdate, "job-1", service.RunEvent{Session: "s1", Kind: "state", State: "streaming"}), false, true, false, "state", ""},
		{"the answer so far is a run event with its text", wire(service.EventRunPartial, "job-1", service.RunEvent{Session: "s1", Kind: "partial", Partial: &record.Partial{Text: "Hel"}}), false, true, false, "partial", "Hel"},
		{"garbage is neither", wire(service.EventRunUpdate, "job-1", json.RawMessage(`[1]`)), false, false, false, "", ""},
		{"an approval request is an approval, not a run event", wire(service.EventApprovalRequested, "job-2", ap), false, false, true, "", ""},
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
			if ok != tc.approval || (ok && !reflect.DeepEqual(got, ap)) {
				t.Fatalf("Approval = %+v, %v", got, ok)
			}
		})
	}
}

func TestEventPayloadsTravelAsTheirOwnJSON(t *testing.T) {
	ap := service.Approval{JobID: "job-2", ClientID: "c_a", ClientName: "agent", Kind: service.KindAsk, Summary: "hello"}
	ev := service.Event{Seq: 7, Type: service.EventApprovalRequested, JobID: "job-2", ClientID: "c_a", Data: &service.EventData{Approval: &ap}}
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var m struct{ Data service.Approval }
	if err := json.Unmarshal(b, &m); err != nil || !reflect.DeepEqual(m.Data, ap) {
		t.Fatalf("the event's data on the wire is %s, want the approval itself", b)
	}
	var back service.Event
	if err := json.Unmarshal(b, &back); err != nil || back.Seq != 7 || back.Data == nil || back.Data.Approval == nil || !reflect.DeepEqual(*back.Data.Approval, ap) {
		t.Fatalf("read back %+v: %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"type":"approval.resolved","data":[1]}`), &back); err == nil {
		t.Fatal("a decision that is not one was read without an error")
	}
	if err := json.Unmarshal([]byte(`{"type":"something.new","data":{"x":1}}`), &back); err != nil || back.Data != nil {
		t.Fatalf("an event of a newer hub: %+v %v, want it read without its payload", back, err)
	}
}
