package hub_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
	"testing"
)

// createOptions is what the fake decided about a new job.
type createOptions struct{ AwaitApproval bool }

// fakeBackend stands in for Ferry's core (the job pipeline and the history)
// as the service.Gateway the hub serves, so the gateway's routes can be
// tested. Its clients and pairing codes are the real ones (package clients
// over a badger store in a temp dir, on the test's clock); it holds an
// agent's job for approval unless the client is set to auto-approve and
// announces approvals on its event stream, as the core does, and records
// what the hub asked of it.
type fakeBackend struct {
	service.LocalOnly // the desktop's operations are not the hub's

	mu        sync.Mutex
	n         int
	clients   *clients.Registry
	pairing   *clients.Pairing
	jobs      map[string]hub.Job
	specs     []hub.JobSpec
	opts      []createOptions
	approved  []string
	rejected  map[string]string
	sessions  []hub.SessionSummary
	tabs      []hub.Tab
	artifacts map[string][]byte
	verified  bool
	events    chan hub.Event
}

func newFakeBackend(t testing.TB, now func() time.Time) *fakeBackend {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fakeBackend{
		clients:  clients.New(st),
		pairing:  clients.NewPairing(0, now),
		jobs:     map[string]hub.Job{},
		rejected: map[string]string{},
		sessions: []hub.SessionSummary{
			{ID: "s1", Site: "chatgpt", Title: "zip builder"},
			{ID: "s2", Site: "gemini", Title: "poem about rivers"},
		},
		tabs:      []hub.Tab{{TargetID: "T1", Site: "chatgpt", URL: "https://chatgpt.com/c/1", Title: "ChatGPT"}},
		artifacts: map[string][]byte{"job-1/out.zip": []byte("PK\x05\x06" + string(make([]byte, 18)))},
		verified:  true,
		events:    make(chan hub.Event, 64),
	}
}

// ownerOnly is the service's refusal of what only the user may do: the
// hub passes every caller through, and the service (core's, and this
// stand-in of it) decides.
func ownerOnly(c service.Caller, what string) error { return service.RequireOwner(c, what) }

// cannot is the answer of an operation the fake owner does not offer.
func cannot(what string) error {
	return errs.New(errs.BadInput, "this Ferry owner cannot %s", what)
}

func (f *fakeBackend) Hello(_ context.Context, c service.Caller, _ service.HelloRequest) (service.Hello, error) {
	return service.Hello{Version: "fake", Wire: service.WireRevision, Caller: c}, nil
}

func (f *fakeBackend) SubmitJob(ctx context.Context, c service.Caller, spec hub.JobSpec) (hub.Job, error) {
	if err := spec.Validate(); err != nil {
		return hub.Job{}, err
	}
	await, name := false, ""
	if !c.IsOwner() {
		rec, err := f.clients.Active(ctx, c.Client)
		if err != nil {
			return hub.Job{}, err
		}
		await, name = !rec.AutoApprove, rec.Name
	}
	j, err := f.create(spec, c.Requester(), createOptions{AwaitApproval: await})
	if err == nil && await {
		ap := service.ApprovalOf(j, spec, name)
		f.events <- hub.Event{Type: hub.EventApprovalRequested, JobID: j.ID, ClientID: j.RequestedBy, Data: &hub.EventData{Approval: &ap}}
	}
	return j, err
}

func (f *fakeBackend) create(spec hub.JobSpec, by string, opts createOptions) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	state := "running"
	if opts.AwaitApproval {
		state = hub.StateAwaitingApproval
	}
	spec.RequestedBy = by
	j := hub.Job{ID: fmt.Sprintf("job-%d", f.n), Kind: spec.Kind, State: state, RequestedBy: by, CreatedAt: time.Unix(1700000000, 0).UTC()}
	f.jobs[j.ID] = j
	f.specs = append(f.specs, spec)
	f.opts = append(f.opts, opts)
	return j, nil
}

func (f *fakeBackend) GetJob(_ context.Context, c service.Caller, ref service.JobRef) (hub.Job, error) {
	j, err := f.job(ref.ID)
	if err == nil && !c.IsOwner() && j.RequestedBy != c.Requester() {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q for this client", ref.ID)
	}
	return j, err
}

// job returns a job as stored.
func (f *fakeBackend) job(id string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, ok := f.jobs[id]
	if !ok {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	return j, nil
}

func (f *fakeBackend) WatchJob(context.Context, service.Caller, service.WatchRequest, func(service.JobEvent)) (hub.Job, error) {
	return hub.Job{}, cannot("watch jobs")
}

func (f *fakeBackend) setState(id, want, to string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, ok := f.jobs[id]
	if !ok {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	if want != "" && j.State != want {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q is %s (it is %s)", id, want, j.State)
	}
	j.State = to
	f.jobs[id] = j
	return j, nil
}

func (f *fakeBackend) CancelJob(ctx context.Context, c service.Caller, ref service.JobRef) (hub.Job, error) {
	before, err := f.GetJob(ctx, c, ref)
	if err != nil {
		return hub.Job{}, err
	}
	j, err := f.setState(ref.ID, "", "cancelled")
	if err == nil && before.State == hub.StateAwaitingApproval {
		f.resolved(j, false, "cancelled by the client")
	}
	return j, err
}

// resolved announces the end of job j's wait for approval.
func (f *fakeBackend) resolved(j hub.Job, approved bool, reason string) {
	f.events <- hub.Event{Type: hub.EventApprovalResolved, JobID: j.ID, ClientID: j.RequestedBy,
		Data: &hub.EventData{Decision: &hub.Decision{JobID: j.ID, Approved: approved, Reason: reason}}}
}

func (f *fakeBackend) ListApprovals(_ context.Context, c service.Caller, _ service.ListApprovalsRequest) ([]hub.Approval, error) {
	if err := ownerOnly(c, "list approvals"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []hub.Approval
	for i := 1; i <= f.n; i++ {
		if j, ok := f.jobs[fmt.Sprintf("job-%d", i)]; ok && j.State == hub.StateAwaitingApproval {
			out = append(out, service.ApprovalOf(j, f.specs[i-1], j.RequestedBy))
		}
	}
	return out, nil
}

func (f *fakeBackend) GetApproval(ctx context.Context, c service.Caller, req service.ApprovalRef) (hub.Approval, error) {
	if err := ownerOnly(c, "list approvals"); err != nil {
		return hub.Approval{}, err
	}
	list, _ := f.ListApprovals(ctx, c, service.ListApprovalsRequest{})
	for _, ap := range list {
		if ap.JobID == req.JobID {
			return ap, nil
		}
	}
	return hub.Approval{}, errs.New(errs.HubNotFound, "no job %q awaits approval", req.JobID)
}

func (f *fakeBackend) Approve(_ context.Context, c service.Caller, req service.ApprovalRef) (hub.Job, error) {
	if err := ownerOnly(c, "decide approvals"); err != nil {
		return hub.Job{}, err
	}
	j, err := f.setState(req.JobID, hub.StateAwaitingApproval, "running")
	if err == nil {
		f.mu.Lock()
		f.approved = append(f.approved, req.JobID)
		f.mu.Unlock()
		f.resolved(j, true, "")
	}
	return j, err
}

func (f *fakeBackend) Reject(_ context.Context, c service.Caller, req service.RejectRequest) (hub.Job, error) {
	if err := ownerOnly(c, "decide approvals"); err != nil {
		return hub.Job{}, err
	}
	j, err := f.setState(req.JobID, hub.StateAwaitingApproval, "failed")
	if err == nil {
		f.mu.Lock()
		f.rejected[req.JobID] = req.Reason
		f.mu.Unlock()
		f.resolved(j, false, req.Reason)
	}
	return j, err
}

func (f *fakeBackend) ListSessions(_ context.Context, _ service.Caller, q hub.SessionQuery) ([]hub.SessionSummary, error) {
	var out []hub.SessionSummary
	for _, s := range f.sessions {
		if q.Site == "" || s.Site == q.Site {
			out = append(out, s)
		}
	}
	return out, nil
}

func (f *fakeBackend) SearchSessions(_ context.Context, _ service.Caller, req service.SearchRequest) ([]hub.SessionSummary, error) {
	var out []hub.SessionSummary
	for _, s := range f.sessions {
		if bytes.Contains([]byte(s.Title), []byte(req.Query)) && len(out) < req.Limit {
			out = append(out, s)
		}
	}
	return out, nil
}

func (f *fakeBackend) ShowSession(_ context.Context, _ service.Caller, ref service.SessionRef) (hub.Session, error) {
	for _, s := range f.sessions {
		if s.ID == ref.ID {
			return hub.Session{SessionSummary: s}, nil
		}
	}
	return hub.Session{}, errs.New(errs.SessionNotFound, "no session %q", ref.ID)
}

func (f *fakeBackend) ExportSession(context.Context, service.Caller, service.ExportRequest) (service.Export, error) {
	return service.Export{}, cannot("export runs")
}

func (f *fakeBackend) ReportSession(context.Context, service.Caller, service.ReportRequest) (service.Report, error) {
	return service.Report{}, cannot("report on runs")
}

func (f *fakeBackend) PollSession(_ context.Context, c service.Caller, _ service.PollRequest) (hub.PollResult, error) {
	if err := ownerOnly(c, "poll runs"); err != nil {
		return hub.PollResult{}, err
	}
	return hub.PollResult{}, cannot("follow runs in flight")
}

func (f *fakeBackend) ReattachSession(_ context.Context, c service.Caller, _ service.ReattachRequest) (hub.ReattachResult, error) {
	if err := ownerOnly(c, "resume a run"); err != nil {
		return hub.ReattachResult{}, err
	}
	return hub.ReattachResult{}, cannot("follow runs in flight")
}

func (f *fakeBackend) DoctorSessions(_ context.Context, c service.Caller, _ service.DoctorRequest) ([]service.DoctorReport, error) {
	if err := ownerOnly(c, "check runs' tabs"); err != nil {
		return nil, err
	}
	return nil, cannot("follow runs in flight")
}

func (f *fakeBackend) DoctorSites(_ context.Context, c service.Caller, _ service.SitesDoctorRequest) (service.SitesReport, error) {
	if err := ownerOnly(c, "check the sites"); err != nil {
		return service.SitesReport{}, err
	}
	return service.SitesReport{}, cannot("check the sites")
}

func (f *fakeBackend) ListTabs(context.Context, service.Caller, service.ListTabsRequest) ([]hub.Tab, error) {
	return f.tabs, nil
}

func (f *fakeBackend) OpenTab(_ context.Context, c service.Caller, _ hub.OpenTabRequest) (hub.Tab, error) {
	if err := ownerOnly(c, "open tabs"); err != nil {
		return hub.Tab{}, err
	}
	return hub.Tab{}, cannot("open tabs")
}

func (f *fakeBackend) ListProjects(_ context.Context, c service.Caller, _ service.ListProjectsRequest) ([]service.Project, error) {
	if err := ownerOnly(c, "list the projects"); err != nil {
		return nil, err
	}
	return nil, cannot("list projects")
}

func (f *fakeBackend) AddProjectSources(_ context.Context, c service.Caller, _ service.AddSourcesRequest) (service.AddedSources, error) {
	if err := ownerOnly(c, "add project sources"); err != nil {
		return service.AddedSources{}, err
	}
	return service.AddedSources{}, cannot("add project sources")
}

func (f *fakeBackend) ListTemplates(context.Context, service.Caller, service.ListTemplatesRequest) ([]hub.Template, error) {
	return nil, cannot("keep templates")
}

func (f *fakeBackend) GetTemplate(context.Context, service.Caller, service.TemplateRef) (hub.Template, error) {
	return hub.Template{}, cannot("keep templates")
}

func (f *fakeBackend) SaveTemplate(_ context.Context, c service.Caller, _ hub.Template) (hub.Template, error) {
	if err := ownerOnly(c, "change templates"); err != nil {
		return hub.Template{}, err
	}
	return hub.Template{}, cannot("keep templates")
}

func (f *fakeBackend) DeleteTemplate(_ context.Context, c service.Caller, _ service.TemplateRef) (hub.DeletedTemplate, error) {
	if err := ownerOnly(c, "change templates"); err != nil {
		return hub.DeletedTemplate{}, err
	}
	return hub.DeletedTemplate{}, cannot("keep templates")
}

func (f *fakeBackend) RenderTemplate(context.Context, service.Caller, service.RenderRequest) (service.Rendered, error) {
	return service.Rendered{}, cannot("keep templates")
}

func (f *fakeBackend) ListClients(ctx context.Context, c service.Caller, _ service.ListClientsRequest) ([]hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return nil, err
	}
	recs, err := f.clients.List(ctx)
	out := make([]hub.ClientInfo, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Info())
	}
	return out, err
}

func (f *fakeBackend) RevokeClient(ctx context.Context, c service.Caller, ref service.ClientRef) (hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	rec, err := f.clients.Revoke(ctx, ref.ID)
	if err != nil {
		return hub.ClientInfo{}, err
	}
	info := rec.Info()
	f.events <- hub.Event{Type: hub.EventClientRevoked, ClientID: hub.OwnerClientID, Data: &hub.EventData{Client: &info}}
	return info, nil
}

func (f *fakeBackend) edit(ctx context.Context, id string, fn func(*clients.Record)) (hub.ClientInfo, error) {
	rec, err := f.clients.Edit(ctx, id, fn)
	return rec.Info(), err
}

func (f *fakeBackend) SetAutoApprove(ctx context.Context, c service.Caller, req service.AutoApproveRequest) (hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	return f.edit(ctx, req.ID, func(r *clients.Record) { r.AutoApprove = req.AutoApprove })
}

func (f *fakeBackend) GrantClient(ctx context.Context, c service.Caller, req service.GrantRequest) (hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	return f.edit(ctx, req.ID, func(r *clients.Record) { r.ExistingConversations = req.ExistingConversations })
}

func (f *fakeBackend) SetFileRoots(ctx context.Context, c service.Caller, req service.FileRootsRequest) (hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	return f.edit(ctx, req.ID, func(r *clients.Record) { r.FileRoots = req.Roots })
}

func (f *fakeBackend) NewPairingCode(_ context.Context, c service.Caller, _ service.PairingRequest) (hub.PairingCode, error) {
	if err := ownerOnly(c, "pair clients"); err != nil {
		return hub.PairingCode{}, err
	}
	return f.pairing.Issue()
}

func (f *fakeBackend) Pair(ctx context.Context, req service.PairRequest) (service.Paired, error) {
	return f.clients.Pair(ctx, f.pairing, req)
}

func (f *fakeBackend) Authenticate(ctx context.Context, tok string) (hub.ClientInfo, error) {
	rec, err := f.clients.Authenticate(ctx, tok)
	return rec.Info(), err
}

func (f *fakeBackend) ActAs(ctx context.Context, id string) (hub.ClientInfo, error) {
	rec, err := f.clients.Active(ctx, id)
	return rec.Info(), err
}

// TabAction refuses an agent; the owner's is not this stand-in's to do.
func (f *fakeBackend) TabAction(ctx context.Context, c service.Caller, req service.TabActionRequest) (service.TabActionResult, error) {
	if err := ownerOnly(c, "act on the tabs"); err != nil {
		return service.TabActionResult{}, err
	}
	return f.LocalOnly.TabAction(ctx, c, req)
}

func (f *fakeBackend) BrowserEndpoint(_ context.Context, c service.Caller) (hub.BrowserInfo, error) {
	if err := ownerOnly(c, "reach the owner's browser"); err != nil {
		return hub.BrowserInfo{}, err
	}
	return hub.BrowserInfo{}, errs.New(errs.BrowserDisconnected, "this Ferry owner drives no browser of its own")
}

// register pairs a client directly, as a redeemed code does, returning its
// id and token.
func (f *fakeBackend) register(t testing.TB, name string) (string, string) {
	t.Helper()
	rec, token, err := f.clients.Register(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.ID, token
}

func (f *fakeBackend) OpenArtifact(ctx context.Context, c service.Caller, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
	if _, err := f.GetJob(ctx, c, service.JobRef{ID: jobID}); err != nil {
		return hub.ArtifactInfo{}, nil, err
	}
	data, ok := f.artifacts[jobID+"/"+name]
	if !ok {
		return hub.ArtifactInfo{}, nil, errs.New(errs.ArtifactNotFound, "no artifact %q", name)
	}
	sum := sha256.Sum256(data)
	f.mu.Lock()
	verified := f.verified
	f.mu.Unlock()
	info := hub.ArtifactInfo{Name: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Verified: verified}
	return info, io.NopCloser(bytes.NewReader(data)), nil
}

func (f *fakeBackend) Events(ctx context.Context) (<-chan hub.Event, error) { return f.events, nil }

func (f *fakeBackend) createdSpecs() []hub.JobSpec {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hub.JobSpec(nil), f.specs...)
}

func (f *fakeBackend) createOpts() []createOptions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]createOptions(nil), f.opts...)
}

func (f *fakeBackend) approvedIDs() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.approved...)
}

func (f *fakeBackend) rejectReason(id string) string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.rejected[id]
}

func (f *fakeBackend) setVerified(v bool) {
	f.mu.Lock()
	f.verified = v
	f.mu.Unlock()
}

var _ service.Gateway = (*fakeBackend)(nil)

// Retrieve answers a receipt for conversation "conv-ok", with the error
// of a run that failed after it began for "conv-failed", and BadInput
// before any receipt otherwise.
func (f *fakeBackend) Retrieve(_ context.Context, _ service.Caller, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	switch req.Conversation {
	case "conv-ok":
		return &service.RetrieveReceipt{Kind: "retrieve", OK: true, ConversationID: req.Conversation, Path: req.OutDir}, nil
	case "conv-failed":
		return &service.RetrieveReceipt{Kind: "retrieve", ConversationID: req.Conversation},
			errs.New(errs.ArtifactNotFound, "no zip in conversation %s", req.Conversation)
	}
	return nil, errs.New(errs.BadInput, "--conv %q is not a ChatGPT conversation id", req.Conversation)
}

func (f *fakeBackend) EnsureAgent(ctx context.Context, c service.Caller, req service.EnsureAgentRequest) (hub.ClientInfo, error) {
	if err := ownerOnly(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	rec, err := f.clients.EnsureAgent(ctx, req)
	return rec.Info(), err
}
