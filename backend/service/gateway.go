package service

import (
	"context"
	"io"
)

// Gateway is the Service as the owner's local gateway (package hub) serves
// it to other processes. Besides the operations it answers what only the
// owner's own implementation can: whom a paired client's token stands for,
// the redemption of a pairing code, a job's artifact files and the
// DevTools address of the owner's browser. Package core is its one
// implementation.
type Gateway interface {
	Service

	// Authenticate returns the paired client whose token tok is.
	// Errors: errs.HubUnauthorized for a malformed token, one no client
	// holds or a revoked client's.
	Authenticate(ctx context.Context, tok string) (ClientInfo, error)
	// ActAs returns agent client id, for a request of the owner's token
	// that acts as it (or to check that a connected client was not
	// revoked since). Errors: errs.HubUnauthorized for an unknown or
	// revoked client.
	ActAs(ctx context.Context, id string) (ClientInfo, error)
	// Pair redeems a code drawn by NewPairingCode for a new paired client
	// and its token, shown this once. Errors: errs.BadInput for a bad
	// name (the code is not spent); errs.PairingCodeInvalid for a wrong,
	// used or expired code; errs.HubRateLimited, with evidence
	// "retryAfter" (a Go duration), when req.From guessed too often.
	Pair(ctx context.Context, req PairRequest) (Paired, error)
	// OpenArtifact opens artifact name of job jobID, which c may see.
	// The caller closes the reader. Errors: errs.HubNotFound for a job c
	// may not see; errs.ArtifactNotFound.
	OpenArtifact(ctx context.Context, c Caller, jobID, name string) (ArtifactInfo, io.ReadCloser, error)
	// Events delivers the owner's events (EventRunUpdate, EventRunPartial,
	// EventApprovalRequested, EventApprovalResolved, EventClientRevoked)
	// of every job and client until ctx ends, when the channel closes. A
	// slow reader misses events rather than slowing the runs; a job's
	// state stays readable with GetJob. Errors: errs.Internal once the
	// implementation has closed.
	Events(ctx context.Context) (<-chan Event, error)
	// BrowserEndpoint is the DevTools address of the owner's browser (the
	// owner's only). Errors: errs.BrowserDisconnected when it has none now.
	BrowserEndpoint(ctx context.Context, c Caller) (BrowserInfo, error)
}

// PairRequest redeems a pairing code (the body of POST /v1/pair).
type PairRequest struct {
	Code string `json:"code"`
	Name string `json:"name"`
	// From is the address the request came from, the key of the guessing
	// limits; the gateway sets it.
	From string `json:"-"`
}

// Paired answers a redeemed pairing code: the new client's id and token,
// shown this once.
type Paired struct {
	ClientID string `json:"clientId"`
	Token    string `json:"token"`
}

// ArtifactInfo describes an artifact file of a job.
type ArtifactInfo struct {
	Name     string `json:"name"`
	Size     int64  `json:"size"`
	SHA256   string `json:"sha256"`
	Verified bool   `json:"verified"`
}

// BrowserInfo is the DevTools address of the owner's browser (GET
// /v1/browser), so that a CLI command on the same account attaches to it
// instead of launching a second browser on the profile it holds.
type BrowserInfo struct {
	URL string `json:"url"`
}
