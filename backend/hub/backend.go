package hub

import (
	"context"
	"io"
)

// Backend is the part of Ferry's core the hub serves: the job pipeline, the
// session history, the browser's tabs and the artifact store. Errors should
// be errs envelopes; the hub maps their codes to HTTP statuses and passes
// them to the client unchanged (anything else becomes errs.Internal).
type Backend interface {
	// CreateJob creates and (unless opts.AwaitApproval) starts a job. With
	// AwaitApproval the job must be stored in StateAwaitingApproval and
	// nothing may be sent to a site until ApproveJob.
	CreateJob(ctx context.Context, spec JobSpec, opts CreateOptions) (Job, error)
	// GetJob returns a job by id (errs envelope with a not-found code when
	// there is none).
	GetJob(ctx context.Context, id string) (Job, error)
	// CancelJob stops a job and returns its new state.
	CancelJob(ctx context.Context, id string) (Job, error)
	// ApproveJob starts a job that waits in StateAwaitingApproval.
	ApproveJob(ctx context.Context, id string) (Job, error)
	// RejectJob ends a job that waits in StateAwaitingApproval without
	// running it (failed with errs.ApprovalRejected).
	RejectJob(ctx context.Context, id, reason string) (Job, error)

	ListSessions(ctx context.Context, q SessionQuery) ([]SessionSummary, error)
	SearchSessions(ctx context.Context, query string, limit int) ([]SessionSummary, error)
	ShowSession(ctx context.Context, id string) (Session, error)
	ListTabs(ctx context.Context) ([]Tab, error)

	// OpenArtifact opens the named artifact file of a job. The hub serves
	// only artifacts whose info says Verified. The caller closes the reader.
	OpenArtifact(ctx context.Context, jobID, name string) (ArtifactInfo, io.ReadCloser, error)
}

// EventSource delivers run events (run.update, run.partial) from the
// pipeline. Events must carry the JobID and the RequestedBy of the job as
// ClientID, so that the hub shows each client only its own runs. The channel
// is closed when ctx ends or the source stops.
type EventSource interface {
	Events(ctx context.Context) (<-chan Event, error)
}
