package service

import (
	"fmt"
	"path/filepath"
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
	// Model is the model the job asks for ("" is the site's default).
	Model string `json:"model,omitempty"`
	// Where says which tab or conversation the job would use, in words
	// (JobTarget.Where).
	Where string `json:"where,omitempty"`
	// Continues says the job would go on in an existing conversation.
	Continues bool `json:"continues"`
	// Existing says the job would use a tab, conversation or run of the
	// user's, which the client was granted.
	Existing bool `json:"existing,omitempty"`
	// Prompt is the whole of what the job would send (JobRequest.Text),
	// never cut: Summary can leave a part out, the user decides on this.
	Prompt string `json:"prompt"`
	// Files are the files the job would attach, with their sizes.
	Files []Attachment `json:"files,omitempty"`
}

// ApprovalOf is the approval of j, a job awaiting it that client
// clientName asked for with the request asked: the site (resolved from the
// tab or conversation when the request named none), the tab or
// conversation it would use, the model and the prompt's summary. The
// request j keeps (its Detail's) is preferred over asked: the Service may
// have narrowed it (an agent's site-only ask becomes a new chat).
func ApprovalOf(j Job, asked JobRequest, clientName string) Approval {
	spec := asked
	if j.Detail != nil && j.Detail.Spec.Kind != "" {
		spec = j.Detail.Spec
	}
	ap := Approval{JobID: j.ID, ClientID: spec.RequestedBy, ClientName: clientName, Kind: spec.Kind, Site: spec.Site,
		Model: spec.Model, Summary: spec.Summary(), RequestedAt: j.CreatedAt.UTC(), Prompt: spec.Text()}
	if j.Detail == nil || j.Detail.Target == nil {
		return ap
	}
	t := j.Detail.Target
	if ap.Site == "" {
		ap.Site = t.Site
	}
	ap.Where, ap.Continues, ap.Existing = t.Where, t.Continues, t.Existing
	ap.Files = t.Files
	return ap
}

// Describe says in one line what approving a would do, e.g. "ask chatgpt
// (model gpt-5) in your existing conversation 'Tax questions', continuing
// it".
func (a Approval) Describe() string {
	site := a.Site
	if site == "" {
		site = "an unresolved site"
	}
	model := "the site's default model"
	if a.Model != "" {
		model = "model " + a.Model
	}
	out := string(a.Kind) + " " + site + " (" + model + ")"
	if a.Where != "" {
		out += " in " + a.Where
	}
	if a.Continues {
		out += ", continuing it"
	}
	if len(a.Files) > 0 {
		names := make([]string, len(a.Files))
		for i, f := range a.Files {
			names[i] = f.Name + " (" + byteSize(f.Bytes) + ")"
		}
		noun := "files"
		if len(a.Files) == 1 {
			noun = "file"
		}
		out += fmt.Sprintf(", with %d %s: %s", len(a.Files), noun, strings.Join(names, ", "))
	}
	return out
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
	// ExistingConversations says the user granted the client's jobs the
	// use of the user's existing tabs, conversations and runs.
	ExistingConversations bool `json:"existingConversations,omitempty"`
	// Kind is the kind of an agent client a face of the user's acts as
	// (AgentKindMCP); "" for a client paired with a code.
	Kind string `json:"kind,omitempty"`
	// FileRoots are the directories under which the client's jobs may
	// name files to attach (none: it may attach no file).
	FileRoots []string `json:"fileRoots,omitempty"`
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

// GrantRequest grants client ID the use of the user's existing tabs,
// conversations and runs in its jobs (ExistingConversations true), or
// takes that right back (false).
type GrantRequest struct {
	ID                    string `json:"id"`
	ExistingConversations bool   `json:"existingConversations"`
}

// Validate checks the request. Errors: as ClientRef.Validate.
func (r GrantRequest) Validate() error { return ClientRef{ID: r.ID}.Validate() }

// FileRootsRequest replaces the folders under which the jobs of client ID
// may name files to attach ([] for none: it may attach no file).
type FileRootsRequest struct {
	ID    string   `json:"id"`
	Roots []string `json:"roots"`
}

// Validate checks the request. Errors: as ClientRef.Validate; errs.BadInput
// for a folder that is not an absolute path.
func (r FileRootsRequest) Validate() error {
	if err := (ClientRef{ID: r.ID}).Validate(); err != nil {
		return err
	}
	for _, root := range r.Roots {
		if !filepath.IsAbs(root) {
			return errs.New(errs.BadInput, "folder %q is not an absolute path", clip(root, 120)).
				WithHint("give each allowed folder as an absolute path")
		}
	}
	return nil
}

// PairingRequest asks for a new one-time pairing code.
type PairingRequest struct{}

// Validate accepts every request.
func (PairingRequest) Validate() error { return nil }

// PairingCode is a one-time code that a client exchanges for its token.
type PairingCode struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expiresAt"`
}

// AgentKindMCP is the kind of the agent client an MCP face acts as.
const AgentKindMCP = "mcp"

// EnsureAgentRequest asks for the stable agent client of a face the user
// runs on their own account (an MCP server named after its agent): one
// client per Name and Kind, created on the first request, never with a
// token (the face acts as it with the owner's token).
type EnsureAgentRequest struct {
	Name string `json:"name"`
	Kind string `json:"kind"`
}

// Validate checks the request. Errors: errs.BadInput for a blank name or
// an unknown kind.
func (r EnsureAgentRequest) Validate() error {
	if strings.TrimSpace(r.Name) == "" {
		return errs.New(errs.BadInput, "an agent client needs a name").WithHint("name the agent, e.g. its clientInfo.name")
	}
	if r.Kind != AgentKindMCP {
		return errs.New(errs.BadInput, "unknown agent kind %q", clip(r.Kind, 40)).WithHint("set kind to \"mcp\"")
	}
	return nil
}

// byteSize prints n bytes for people ("512 B", "1.5 KiB", "20.0 MiB").
func byteSize(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
}
