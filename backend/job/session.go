package job

import (
	"errors"

	"github.com/ferrydesk/ferry/backend/record"
)

// Sentinels, matched with errors.Is.
var (
	// ErrIllegalTransition: the state machine forbids the move.
	ErrIllegalTransition = errors.New("illegal state transition")
)

// The records the pipeline writes, as package record declares them for the
// store and every face alike: Session is the record of one run (the store,
// the hub and `ferry sessions show --json` carry its JSON form), Entry one
// line of its journal, Artifact a file it produced, Receipt one proof layer,
// Fingerprint one submission.
type (
	Session     = record.Run
	Entry       = record.JournalEntry
	Artifact    = record.Artifact
	Receipt     = record.Receipt
	Fingerprint = record.Fingerprint
	// Origin says who started a run.
	Origin = record.Origin
	// Approval is the approval state of a run an agent client asked for.
	Approval = record.Approval
)

// The origins.
const (
	OriginDesktop = record.OriginDesktop
	OriginCLI     = record.OriginCLI
	OriginAgent   = record.OriginAgent
)

// The approval states; runs that need none carry ApprovalNotRequired.
const (
	ApprovalNotRequired = record.ApprovalNotRequired
	ApprovalPending     = record.ApprovalPending
	ApprovalApproved    = record.ApprovalApproved
	ApprovalRejected    = record.ApprovalRejected
)
