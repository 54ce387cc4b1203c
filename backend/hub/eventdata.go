package hub

import (
	"encoding/json"

	"github.com/ferrydesk/ferry/backend/service"
)

// An event's Data is the JSON payload of its Type: a run's event
// (service.RunEvent) or, at a job's end, the job itself (service.Job) for
// run.update and run.partial; an Approval for approval.requested; a
// Decision for approval.resolved; a ClientInfo for client.revoked. These
// accessors are the one place that reads it back into those types.

// JobEvent reads a run event: the job's view (a run.update whose payload
// has the job's id) or the run's own event (a payload with a kind). ok is
// false for other types and for a payload that is neither.
func (e Event) JobEvent() (ev service.JobEvent, ok bool) {
	ev = service.JobEvent{Type: e.Type, JobID: e.JobID, Time: e.Time}
	switch e.Type {
	case EventRunUpdate, EventRunPartial:
	default:
		return ev, false
	}
	if e.Type == EventRunUpdate {
		var j service.Job
		if json.Unmarshal(e.Data, &j) == nil && j.ID != "" {
			ev.Job = &j
			return ev, true
		}
	}
	var re service.RunEvent
	if json.Unmarshal(e.Data, &re) != nil || re.Kind == "" {
		return ev, false
	}
	ev.Run = &re
	return ev, true
}

// Approval reads the approval of an approval.requested event; ok is false
// for other types and for a payload that does not decode.
func (e Event) Approval() (ap Approval, ok bool) {
	if e.Type != EventApprovalRequested || json.Unmarshal(e.Data, &ap) != nil {
		return Approval{}, false
	}
	return ap, true
}
