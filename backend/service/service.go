package service

import "context"

// Service is every operation a face of Ferry offers. Each method takes the
// Caller of the request; implementations call the request's Validate first
// and decide from the Caller what it may see and do (an agent sees its own
// jobs, its own runs and the tabs its jobs opened only, names the user's
// tabs, conversations and runs only when the user granted it, and the
// owner alone decides approvals, manages clients and drives sessions in
// flight). Every error is an errs envelope:
// errs.BadInput from Validate, errs.HubForbidden for an operation the
// caller may not do, errs.HubNotFound for a job the caller may not see (as
// for one that does not exist), errs.VersionMismatch from a remote
// implementation whose owner runs another wire revision, and the
// envelopes of the pipeline, the store and the browser.
type Service interface {
	// Hello says which Ferry answers and who it takes c for.
	Hello(ctx context.Context, c Caller, req HelloRequest) (Hello, error)

	// SubmitJob creates a job. A job of an agent that is not auto-approved
	// waits in StateAwaitingApproval and sends nothing until approved; any
	// other starts at once in the background.
	SubmitJob(ctx context.Context, c Caller, req JobRequest) (Job, error)
	// GetJob returns a job with its run's current state.
	GetJob(ctx context.Context, c Caller, req JobRef) (Job, error)
	// WatchJob follows a job until it has ended, calling on (which must
	// return quickly) with its state changes and partial text, and returns
	// its final view. It returns early with ctx's error (errs.Cancelled).
	WatchJob(ctx context.Context, c Caller, req WatchRequest, on func(JobEvent)) (Job, error)
	// CancelJob stops a job and returns its new state.
	CancelJob(ctx context.Context, c Caller, req JobRef) (Job, error)
	// Retrieve brings the verified zips of an existing ChatGPT
	// conversation home, sending nothing. An agent retrieves only a
	// conversation of its own runs (or the user's, when granted) and names
	// no folder, tab or browser: its zips go to Ferry's artifacts
	// directory. It returns the receipt written beside them, also when the
	// run failed after it began (nil when it failed before), with the
	// run's error.
	Retrieve(ctx context.Context, c Caller, req RetrieveRequest) (*RetrieveReceipt, error)

	// ListApprovals lists the jobs awaiting approval, oldest first.
	ListApprovals(ctx context.Context, c Caller, req ListApprovalsRequest) ([]Approval, error)
	// GetApproval returns the approval of one job that awaits it
	// (errs.HubNotFound when none does).
	GetApproval(ctx context.Context, c Caller, req ApprovalRef) (Approval, error)
	// Approve starts a job awaiting approval.
	Approve(ctx context.Context, c Caller, req ApprovalRef) (Job, error)
	// Reject ends a job awaiting approval without running it (failed, with
	// errs.ApprovalRejected).
	Reject(ctx context.Context, c Caller, req RejectRequest) (Job, error)

	// ListSessions lists runs newest first, or best match first with a
	// query.
	ListSessions(ctx context.Context, c Caller, req SessionQuery) ([]SessionSummary, error)
	// SearchSessions searches runs with filter words (site:, state:).
	SearchSessions(ctx context.Context, c Caller, req SearchRequest) ([]SessionSummary, error)
	// ShowSession returns a run, resolved by id or unambiguous prefix, with
	// its journal (errs.SessionNotFound, errs.SessionAmbiguous).
	ShowSession(ctx context.Context, c Caller, req SessionRef) (Session, error)
	// ExportSession renders a run as Markdown or JSON, secrets redacted.
	ExportSession(ctx context.Context, c Caller, req ExportRequest) (Export, error)
	// ReportSession builds the failure report of a failed run: one zip with
	// the tab at the failure, the journal and envelope, the versions and the
	// site definition in force, secrets redacted (errs.SessionNotFound; an
	// agent reports only on its own runs; errs.BadInput for a run that did
	// not fail).
	ReportSession(ctx context.Context, c Caller, req ReportRequest) (Report, error)
	// PollSession checks a run once.
	PollSession(ctx context.Context, c Caller, req PollRequest) (PollResult, error)
	// ReattachSession picks the run at once and resumes it in the
	// background as a job of KindReattach; a run that a job runs already is
	// not resumed twice (that job comes back, Started false).
	ReattachSession(ctx context.Context, c Caller, req ReattachRequest) (ReattachResult, error)
	// DoctorSessions checks the tabs of active and stale runs.
	DoctorSessions(ctx context.Context, c Caller, req DoctorRequest) ([]DoctorReport, error)
	// DoctorSites checks the sites live and read-only in the browser, each
	// in an open tab of it or one opened in the background: login,
	// interstitial, every selector role, the stream of the last turn (the
	// owner's only). A site it cannot look at is a report with an Error;
	// the error is for the request as a whole (no browser).
	DoctorSites(ctx context.Context, c Caller, req SitesDoctorRequest) (SitesReport, error)

	// ListTabs lists the tabs of the implementation's browser (none when it
	// has no long-lived browser).
	ListTabs(ctx context.Context, c Caller, req ListTabsRequest) ([]Tab, error)
	// OpenTab opens a site in a new background tab.
	OpenTab(ctx context.Context, c Caller, req OpenTabRequest) (Tab, error)
	// ListProjects lists the account's projects on a site (ChatGPT's), as
	// its page lists them, in a tab opened for it and closed after (the
	// owner's only).
	ListProjects(ctx context.Context, c Caller, req ListProjectsRequest) ([]Project, error)
	// AddProjectSources adds files to a project's sources in a tab opened
	// for it and closed after, each proven by the project's list, once
	// confirmed (the owner's only); a file not added has its Error.
	AddProjectSources(ctx context.Context, c Caller, req AddSourcesRequest) (AddedSources, error)

	// ListTemplates lists the built-in and the user's templates.
	ListTemplates(ctx context.Context, c Caller, req ListTemplatesRequest) ([]Template, error)
	// GetTemplate returns one template (errs.TemplateNotFound).
	GetTemplate(ctx context.Context, c Caller, req TemplateRef) (Template, error)
	// SaveTemplate creates or replaces one of the user's templates.
	SaveTemplate(ctx context.Context, c Caller, req Template) (Template, error)
	// DeleteTemplate deletes one of the user's templates.
	DeleteTemplate(ctx context.Context, c Caller, req TemplateRef) (DeletedTemplate, error)
	// RenderTemplate fills a template with variables.
	RenderTemplate(ctx context.Context, c Caller, req RenderRequest) (Rendered, error)

	// ListClients lists the paired clients, oldest first.
	ListClients(ctx context.Context, c Caller, req ListClientsRequest) ([]ClientInfo, error)
	// RevokeClient revokes a client's token.
	RevokeClient(ctx context.Context, c Caller, req ClientRef) (ClientInfo, error)
	// SetAutoApprove sets whether a client's jobs skip the approval.
	SetAutoApprove(ctx context.Context, c Caller, req AutoApproveRequest) (ClientInfo, error)
	// GrantClient sets whether a client's jobs may name the user's
	// existing tabs, conversations and runs (off for a new client).
	GrantClient(ctx context.Context, c Caller, req GrantRequest) (ClientInfo, error)
	// EnsureAgent returns the agent client of req.Name and req.Kind,
	// creating it (without a token) the first time, so that a face the
	// user runs as an agent keeps one identity across its processes; a
	// revoked one comes back revoked (the owner's only).
	EnsureAgent(ctx context.Context, c Caller, req EnsureAgentRequest) (ClientInfo, error)
	// SetFileRoots replaces the folders under which a client's jobs may
	// name files to attach (none: it may attach no file).
	SetFileRoots(ctx context.Context, c Caller, req FileRootsRequest) (ClientInfo, error)
	// NewPairingCode draws a one-time pairing code (errs.HubNotRunning
	// where no hub runs to redeem it).
	NewPairingCode(ctx context.Context, c Caller, req PairingRequest) (PairingCode, error)

	// The operations of the owner's window (desktop.go), kept apart so
	// that the faces' own operations above read as one list.
	Desktop
}
