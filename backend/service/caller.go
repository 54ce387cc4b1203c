package service

import "github.com/ferrydesk/ferry/backend/errs"

// Face is one of the owner's faces: where a request of the user came from.
type Face string

// The owner's faces.
const (
	FaceDesktop Face = "desktop" // the desktop app's window, tray and quick prompt
	FaceCLI     Face = "cli"     // ferry on the owner's account (the owner token)
	FaceGateway Face = "gateway" // ferry serve's owner token used by a script
	FaceMCP     Face = "mcp"     // the MCP face run by the user
)

// Caller is who makes a request: one of the owner's faces (Face set, Client
// empty) or a paired agent client (Client is its id, Face empty). The
// Service decides from it what the request may see and do.
type Caller struct {
	Face   Face   `json:"face,omitempty"`
	Client string `json:"client,omitempty"`
}

// Requester ids of the owner's faces as jobs record them (a job's
// RequestedBy). Agents are recorded by their client id, which the hub draws
// at random and so never equals either.
const (
	OwnerRequester   = "owner"
	DesktopRequester = "desktop"
)

// Owner is the caller of the owner's face f.
func Owner(f Face) Caller { return Caller{Face: f} }

// Agent is the caller of the paired client id.
func Agent(id string) Caller { return Caller{Client: id} }

// IsOwner reports whether c is one of the owner's faces.
func (c Caller) IsOwner() bool { return c.Client == "" && c.Face != "" }

// RequireOwner is the refusal of what only the user may do (what names it,
// as in "decide approvals") when c is an agent: errs.HubForbidden. Which
// operations are the user's only is the implementation's decision; this is
// how each says no.
func RequireOwner(c Caller, what string) error {
	if c.IsOwner() {
		return nil
	}
	return errs.New(errs.HubForbidden, "only the owner (the Ferry app or the CLI) may %s", what).
		WithHint("ask the user to do this in Ferry")
}

// Requester is the id a job records as RequestedBy for c: DesktopRequester
// for the desktop, OwnerRequester for the owner's other faces, the client
// id for an agent.
func (c Caller) Requester() string {
	switch {
	case !c.IsOwner():
		return c.Client
	case c.Face == FaceDesktop:
		return DesktopRequester
	default:
		return OwnerRequester
	}
}

// CallerOf is the caller of a job's RequestedBy id (the inverse of
// Requester; the owner's faces other than the desktop share one id and come
// back as FaceCLI).
func CallerOf(requestedBy string) Caller {
	switch requestedBy {
	case DesktopRequester:
		return Owner(FaceDesktop)
	case OwnerRequester:
		return Owner(FaceCLI)
	default:
		return Agent(requestedBy)
	}
}

// String names c for logs and messages: "desktop", "cli", "agent ID".
func (c Caller) String() string {
	if c.IsOwner() {
		return string(c.Face)
	}
	if c.Client == "" {
		return "nobody"
	}
	return "agent " + c.Client
}
