package hub

import (
	"encoding/json"
	"sort"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// JobKind says what a job does.
type JobKind string

// The kinds of job the API accepts.
const (
	KindAsk  JobKind = "ask"
	KindCode JobKind = "code"
)

// StateAwaitingApproval is the state of a job that the Backend created on
// hold: nothing was sent to a site, and the job runs only after ApproveJob.
// The other states belong to the pipeline and pass through the hub as they
// are.
const StateAwaitingApproval = "awaiting_approval"

// OwnerClientID is the client id of the owner token (the CLI on the same
// account, reading the hub file). Paired clients have other ids.
const OwnerClientID = "owner"

// JobSpec is a request for a job, as a client sends it.
type JobSpec struct {
	Kind      JobKind `json:"kind"`
	Prompt    string  `json:"prompt"`
	Site      string  `json:"site,omitempty"`
	Model     string  `json:"model,omitempty"`
	Template  string  `json:"template,omitempty"`
	Contract  string  `json:"contract,omitempty"`
	SessionID string  `json:"sessionId,omitempty"`
	TabID     string  `json:"tabId,omitempty"`
	// NewChat asks in a fresh chat: a new tab of Site, whatever tabs of
	// it are open (needs Site and no TabID).
	NewChat bool `json:"newChat,omitempty"`
	// Code jobs (Kind code): the code-mode options of core.CodeRequest.
	// Vars fill Template (ask jobs too). OutDir and RepoRoot name local
	// paths and are accepted from the owner only: an agent's zips go to the
	// owner's artifacts directory.
	Vars                   map[string]string `json:"vars,omitempty"`
	Conversation           string            `json:"conversation,omitempty"`
	MultiZip               bool              `json:"multiZip,omitempty"`
	AllowInline            bool              `json:"allowInline,omitempty"`
	ArchitectureAuthorized bool              `json:"architectureAuthorized,omitempty"`
	Goal                   string            `json:"goal,omitempty"`
	GoalLock               bool              `json:"goalLock,omitempty"`
	Research               bool              `json:"research,omitempty"`
	OutDir                 string            `json:"outDir,omitempty"`
	RepoRoot               string            `json:"repoRoot,omitempty"`
	SourcePaths            []string          `json:"sourcePaths,omitempty"`
	// TimeoutSeconds bounds the run (0: the owner's default).
	TimeoutSeconds int `json:"timeoutSeconds,omitempty"`
	// CooldownSeconds is the wait after a rate limit before the one retry
	// (0: the owner's run.rateLimitCooldown; else 1 s to 1 h).
	CooldownSeconds int `json:"cooldownSeconds,omitempty"`
	// RequestedBy is the id of the client that asked for the job. The hub
	// sets it from the caller's token; a value sent by a client is ignored.
	RequestedBy string `json:"requestedBy,omitempty"`
}

// Text is what the job will send, in words for an approval: the prompt, or
// the template with its variables (the owner renders it).
func (s JobSpec) Text() string {
	if s.Template == "" {
		return s.Prompt
	}
	keys := make([]string, 0, len(s.Vars))
	for k := range s.Vars {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	b.WriteString("template " + s.Template)
	for _, k := range keys {
		b.WriteString("\n" + k + " = " + s.Vars[k])
	}
	return b.String()
}

// CreateOptions are the hub's decisions about a new job.
type CreateOptions struct {
	// AwaitApproval asks the Backend to create the job in
	// StateAwaitingApproval and to do nothing with it until ApproveJob.
	AwaitApproval bool
}

// Job is the Backend's view of a job. Detail is the pipeline's full record,
// passed through unchanged.
type Job struct {
	ID          string          `json:"id"`
	Kind        JobKind         `json:"kind"`
	State       string          `json:"state"`
	RequestedBy string          `json:"requestedBy,omitempty"`
	CreatedAt   time.Time       `json:"createdAt"`
	UpdatedAt   time.Time       `json:"updatedAt"`
	Error       *errs.Envelope  `json:"error,omitempty"`
	Detail      json.RawMessage `json:"detail,omitempty"`
}

// SessionSummary is one conversation in the history.
type SessionSummary struct {
	ID        string          `json:"id"`
	Site      string          `json:"site"`
	Title     string          `json:"title"`
	UpdatedAt time.Time       `json:"updatedAt"`
	Extra     json.RawMessage `json:"extra,omitempty"`
}

// Session is one conversation with its content. Detail is the sessions
// package's full record, passed through unchanged.
type Session struct {
	SessionSummary
	Detail json.RawMessage `json:"detail,omitempty"`
}

// SessionQuery narrows a session listing. Query is fuzzy text over the
// runs (best match first); without it the listing is newest first. State
// is a pipeline state (the Backend answers errs.BadInput for an unknown
// one).
type SessionQuery struct {
	Site  string `json:"site,omitempty"`
	State string `json:"state,omitempty"`
	Query string `json:"query,omitempty"`
	Limit int    `json:"limit,omitempty"`
}

// Tab is a browser tab Ferry can drive.
type Tab struct {
	TargetID string `json:"targetId"`
	Site     string `json:"site,omitempty"`
	URL      string `json:"url"`
	Title    string `json:"title"`
}

// ArtifactInfo describes an artifact file of a job.
type ArtifactInfo struct {
	Name     string `json:"name"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Verified bool   `json:"verified"`
}

// Event types. Run events come from the EventSource; approval and client
// events from the hub itself.
const (
	EventRunUpdate         = "run.update"
	EventRunPartial        = "run.partial"
	EventApprovalRequested = "approval.requested"
	EventApprovalResolved  = "approval.resolved"
	EventClientRevoked     = "client.revoked"
)

// Event is one message of the event stream. ClientID names the client whose
// job the event concerns: a paired client sees only its own events, the
// owner sees all. Seq is assigned by the hub and increases by one per event.
type Event struct {
	Seq      uint64          `json:"seq"`
	Type     string          `json:"type"`
	JobID    string          `json:"jobId,omitempty"`
	ClientID string          `json:"clientId,omitempty"`
	Time     time.Time       `json:"time"`
	Data     json.RawMessage `json:"data,omitempty"`
}

// Approval is a job that waits for the user's decision.
type Approval struct {
	JobID       string    `json:"jobId"`
	ClientID    string    `json:"clientId"`
	ClientName  string    `json:"clientName"`
	Kind        JobKind   `json:"kind"`
	Site        string    `json:"site,omitempty"`
	Summary     string    `json:"summary"`
	RequestedAt time.Time `json:"requestedAt"`
}

// Decision is the outcome of an approval, as sent in approval.resolved.
type Decision struct {
	JobID    string `json:"jobId"`
	Approved bool   `json:"approved"`
	Reason   string `json:"reason,omitempty"`
}

// ClientInfo is a paired client as the API lists it (never with its token).
type ClientInfo struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	AutoApprove bool       `json:"autoApprove"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt,omitempty"`
}

// PairingCode is a one-time code that a client exchanges for its token.
type PairingCode struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// PairRequest is the body of POST /v1/pair.
type PairRequest struct {
	Code string `json:"code"`
	Name string `json:"name"`
}

// PairResponse answers a successful pairing: the client's id and token. It
// is the only time the token is shown.
type PairResponse struct {
	ClientID string `json:"clientId"`
	Token    string `json:"token"`
}

// WhoAmI answers GET /v1/whoami; clients use it to check that a hub file
// points at a live hub that accepts their token.
type WhoAmI struct {
	ClientID  string    `json:"clientId"`
	Owner     bool      `json:"owner"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"startedAt"`
}
