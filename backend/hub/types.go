package hub

import (
	"github.com/ferrydesk/ferry/backend/service"
	"time"
)

// The API's request and result types are the service's (package service is
// the wire's one definition); these names keep the hub's own vocabulary.
type (
	// JobKind says what a job does.
	JobKind = service.JobKind
	// JobSpec is a request for a job, as a client sends it. RequestedBy is
	// set by the hub from the caller's token; a value sent by a client is
	// ignored.
	JobSpec = service.JobRequest
	// Job is the Service's view of a job, its Detail typed.
	Job = service.Job
	// SessionSummary is one conversation in the history.
	SessionSummary = service.SessionSummary
	// Session is one conversation with its content.
	Session = service.Session
	// SessionQuery narrows a session listing (an unknown State is
	// errs.BadInput from the Service).
	SessionQuery = service.SessionQuery
	// Tab is a browser tab Ferry can drive.
	Tab = service.Tab
	// Approval is a job that waits for the user's decision.
	Approval = service.Approval
	// ClientInfo is a paired client as the API lists it (never with its
	// token).
	ClientInfo = service.ClientInfo
	// PairingCode is a one-time code that a client exchanges for its token.
	PairingCode = service.PairingCode
)

// The kinds of job the API accepts.
const (
	KindAsk  = service.KindAsk
	KindCode = service.KindCode
)

// StateAwaitingApproval is the state of a job that the Service created on
// hold: nothing was sent to a site, and the job runs only once approved.
// The other states belong to the pipeline and pass through the hub as they
// are.
const StateAwaitingApproval = service.StateAwaitingApproval

// OwnerClientID is the client id of the owner token (the CLI on the same
// account, reading the hub file). Paired clients have other ids.
const OwnerClientID = service.OwnerRequester

// ArtifactInfo describes an artifact file of a job.
type ArtifactInfo = service.ArtifactInfo

// The event stream's types are the service's (the owner's stream,
// service.Gateway's Events).
type (
	// Event is one message of the event stream.
	Event = service.Event
	// EventData is an event's payload, typed by the event's Type.
	EventData = service.EventData
	// Decision is the outcome of an approval (approval.resolved).
	Decision = service.Decision
)

// The event types.
const (
	EventRunUpdate         = service.EventRunUpdate
	EventRunPartial        = service.EventRunPartial
	EventApprovalRequested = service.EventApprovalRequested
	EventApprovalResolved  = service.EventApprovalResolved
	EventClientRevoked     = service.EventClientRevoked
)

// PairRequest is the body of POST /v1/pair.
type PairRequest = service.PairRequest

// PairResponse answers a successful pairing: the client's id and token. It
// is the only time the token is shown.
type PairResponse = service.Paired

// WhoAmI answers GET /v1/whoami; clients use it to check that a hub file
// points at a live hub that accepts their token.
type WhoAmI struct {
	ClientID  string    `json:"clientId"`
	Owner     bool      `json:"owner"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"startedAt"`
	// Version and Wire are the owner's side of the version handshake.
	Version string `json:"version"`
	Wire    int    `json:"wire"`
}
