package record

import (
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// JournalEntry is one journal line of a run: the state it entered, when,
// and why.
type JournalEntry struct {
	Seq         uint64         `json:"seq"`
	State       State          `json:"state"`
	At          time.Time      `json:"at"`
	Note        string         `json:"note,omitempty"`
	Fingerprint *Fingerprint   `json:"fingerprint,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
}

// EventKind says what an Event reports.
type EventKind string

// The event kinds.
const (
	// EventState: the run entered State (already persisted).
	EventState EventKind = "state"
	// EventPartial: the answer grew (Partial).
	EventPartial EventKind = "partial"
	// EventFinding: reattach says what it found (Finding).
	EventFinding EventKind = "finding"
)

// Event is one thing a run reports to subscribers (the desktop, the hub,
// `ferry watch`).
type Event struct {
	Session string    `json:"session"`
	Kind    EventKind `json:"kind"`
	At      time.Time `json:"at"`
	// State is the state the run entered (EventState); a job that waits
	// for its run to start reports its own (queued, starting) the same way.
	State   State    `json:"state,omitempty"`
	Note    string   `json:"note,omitempty"`
	Partial *Partial `json:"partial,omitempty"`
	Finding *Finding `json:"finding,omitempty"`
}

// Finding is what reattach found about an interrupted run.
type Finding struct {
	// From is the state the run was in when reattach began.
	From State `json:"from"`
	// Looked says the conversation was searched for the user turn; Found
	// says it was there.
	Looked bool `json:"looked"`
	Found  bool `json:"found"`
	// Action is what reattach did: "redo" (nothing had been sent), "send"
	// (the turn was proved absent), "collect" (the prompt had been sent),
	// "finish" (only bookkeeping was left), "none" (the run had ended).
	Action string `json:"action"`
	Detail string `json:"detail"`
}
