package service

import (
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Approval is a job of an agent that waits for the user's decision.
type Approval struct {
	JobID       string    `json:"jobId"`
	ClientID    string    `json:"clientId"`
	ClientName  string    `json:"clientName"`
	Kind        JobKind   `json:"kind"`
	Site        string    `json:"site,omitempty"`
	Summary     string    `json:"summary"`
	RequestedAt time.Time `json:"requestedAt"`
	// Prompt is the whole of what the job would send (JobRequest.Text),
	// never cut: Summary can leave a part out, the user decides on this.
	Prompt string `json:"prompt"`
}

// ListApprovalsRequest lists the jobs that wait for approval.
type ListApprovalsRequest struct{}

// Validate accepts every request.
func (ListApprovalsRequest) Validate() error { return nil }

// ApprovalRef names a job that waits for approval.
type ApprovalRef struct {
	JobID string `json:"jobId"`
}

// Validate checks the reference. Errors: as JobRef.Validate.
func (r ApprovalRef) Validate() error { return JobRef{ID: r.JobID}.Validate() }

// RejectRequest ends a job that waits for approval without running it.
type RejectRequest struct {
	JobID  string `json:"jobId"`
	Reason string `json:"reason,omitempty"`
}

// Validate checks the request. Errors: as JobRef.Validate.
func (r RejectRequest) Validate() error { return JobRef{ID: r.JobID}.Validate() }

// ClientInfo is a paired client (never with its token).
type ClientInfo struct {
	ID          string     `json:"id"`
	Name        string     `json:"name"`
	AutoApprove bool       `json:"autoApprove"`
	CreatedAt   time.Time  `json:"createdAt"`
	RevokedAt   *time.Time `json:"revokedAt,omitempty"`
}

// ListClientsRequest lists the paired clients, oldest first.
type ListClientsRequest struct{}

// Validate accepts every request.
func (ListClientsRequest) Validate() error { return nil }

// ClientRef names a paired client.
type ClientRef struct {
	ID string `json:"id"`
}

// Validate checks the reference. Errors: errs.BadInput for a blank id.
func (r ClientRef) Validate() error {
	if strings.TrimSpace(r.ID) == "" {
		return errs.New(errs.BadInput, "no client named").WithHint("give the client's id (`ferry clients list` shows them)")
	}
	return nil
}

// AutoApproveRequest sets whether the jobs of client ID run without the
// user's approval.
type AutoApproveRequest struct {
	ID          string `json:"id"`
	AutoApprove bool   `json:"autoApprove"`
}

// Validate checks the request. Errors: as ClientRef.Validate.
func (r AutoApproveRequest) Validate() error { return ClientRef{ID: r.ID}.Validate() }

// PairingRequest asks for a new one-time pairing code.
type PairingRequest struct{}

// Validate accepts every request.
func (PairingRequest) Validate() error { return nil }

// PairingCode is a one-time code that a client exchanges for its token.
type PairingCode struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expiresAt"`
}
