package service

import (
	"encoding/json"
	"fmt"
	"time"
)

// The types of the owner's events: a run's (from the pipeline), and the
// approvals' and clients' (from the service's decisions).
const (
	EventRunUpdate         = "run.update"  // a state the run entered; at the job's end, its view
	EventRunPartial        = "run.partial" // the answer grew
	EventApprovalRequested = "approval.requested"
	EventApprovalResolved  = "approval.resolved"
	EventClientRevoked     = "client.revoked"
)

// Event is one message of the owner's event stream. ClientID names the
// client whose job the event concerns: a paired client sees only its own
// events, the owner sees all. Seq is assigned by the gateway's stream and
// increases by one per event.
type Event struct {
	Seq      uint64     `json:"seq"`
	Type     string     `json:"type"`
	JobID    string     `json:"jobId,omitempty"`
	ClientID string     `json:"clientId,omitempty"`
	Time     time.Time  `json:"time"`
	Data     *EventData `json:"data,omitempty"`
}

// Decision is the outcome of an approval, as sent in approval.resolved.
type Decision struct {
	JobID    string `json:"jobId"`
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// EventData is an event's payload, typed by the event's Type: exactly one
// field is set. On the wire it is the event's "data" object, that value
// alone.
type EventData struct {
	// Run is a run's own event (run.update while the run goes, run.partial).
	Run *RunEvent
	// Job is the job's view once it has ended (run.update).
	Job *Job
	// Approval is the job that waits for the user (approval.requested).
	Approval *Approval
	// Decision is the user's decision on it (approval.resolved).
	Decision *Decision
	// Client is the client whose token was revoked (client.revoked).
	Client *ClientInfo
}

// MarshalJSON writes the one payload that is set (null for none).
func (d EventData) MarshalJSON() ([]byte, error) {
	switch {
	case d.Run != nil:
		return json.Marshal(d.Run)
	case d.Job != nil:
		return json.Marshal(d.Job)
	case d.Approval != nil:
		return json.Marshal(d.Approval)
	case d.Decision != nil:
		return json.Marshal(d.Decision)
	case d.Client != nil:
		return json.Marshal(d.Client)
	}
	return []byte("null"), nil
}

// UnmarshalJSON reads an event and its payload by the event's type: for a
// run.update, the job's view has the job's id and the run's event a kind.
// A payload of an unknown type is dropped (a newer hub's event); one that
// does not fit its type is an error.
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event // without this method
	var aux struct {
		plain
		Data json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	*e = Event(aux.plain)
	e.Data = nil
	if len(aux.Data) == 0 || string(aux.Data) == "null" {
		return nil
	}
	var d EventData
	var err error
	switch e.Type {
	case EventRunUpdate, EventRunPartial:
		var probe struct {
			ID   string `json:"id"`
			Kind string `json:"kind"`
		}
		if err = json.Unmarshal(aux.Data, &probe); err != nil {
			break
		}
		if e.Type == EventRunUpdate && probe.ID != "" {
			d.Job = new(Job)
			err = json.Unmarshal(aux.Data, d.Job)
		} else {
			d.Run = new(RunEvent)
			err = json.Unmarshal(aux.Data, d.Run)
		}
	case EventApprovalRequested:
		d.Approval = new(Approval)
		err = json.Unmarshal(aux.Data, d.Approval)
	case EventApprovalResolved:
		d.Decision = new(Decision)
		err = json.Unmarshal(aux.Data, d.Decision)
	case EventClientRevoked:
		d.Client = new(ClientInfo)
		err = json.Unmarshal(aux.Data, d.Client)
	default:
		return nil
	}
	if err != nil {
		return fmt.Errorf("read the data of a %s event: %w", e.Type, err)
	}
	e.Data = &d
	return nil
}

// JobEvent is a run event in the service's form: the job's view at its end,
// or the run's own event. ok is false for other types and for an event
// without either.
func (e Event) JobEvent() (ev JobEvent, ok bool) {
	ev = JobEvent{Type: e.Type, JobID: e.JobID, Time: e.Time}
	if (e.Type != EventRunUpdate && e.Type != EventRunPartial) || e.Data == nil {
		return ev, false
	}
	switch {
	case e.Data.Job != nil && e.Data.Job.ID != "" && e.Type == EventRunUpdate:
		ev.Job = e.Data.Job
	case e.Data.Run != nil && e.Data.Run.Kind != "":
		ev.Run = e.Data.Run
	default:
		return ev, false
	}
	return ev, true
}

// Approval is the approval of an approval.requested event; ok is false for
// other events.
func (e Event) Approval() (ap Approval, ok bool) {
	if e.Type != EventApprovalRequested || e.Data == nil || e.Data.Approval == nil {
		return Approval{}, false
	}
	return *e.Data.Approval, true
}
