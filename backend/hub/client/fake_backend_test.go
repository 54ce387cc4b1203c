package client_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"

	"github.com/ferrydesk/ferry/backend/clients"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/store"
	"testing"
)

// fakeBackend stands in for Ferry's core behind the hub (the service.Service
// it serves), so the client can be tested against a real hub. It holds an
// agent's job for approval unless the client (read from clients) is set to
// auto-approve, as the core does, and records the jobs asked for. Its
// clients are the real ones (package clients over a badger store in a temp
// dir). The operations the tests do not reach are left to the nil Gateway.
type fakeBackend struct {
	service.Gateway
	clients   *clients.Registry
	pairing   *clients.Pairing
	mu        sync.Mutex
	jobs      map[string]hub.Job
	prompts   []string
	artifacts map[string][]byte
	events    chan hub.Event
}

func newFakeBackend(t testing.TB) *fakeBackend {
	t.Helper()
	st, err := store.Open(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return &fakeBackend{clients: clients.New(st), pairing: clients.NewPairing(0, nil), jobs: map[string]hub.Job{}, artifacts: map[string][]byte{}, events: make(chan hub.Event, 64)}
}

func (f *fakeBackend) Authenticate(ctx context.Context, tok string) (hub.ClientInfo, error) {
	rec, err := f.clients.Authenticate(ctx, tok)
	return rec.Info(), err
}

func (f *fakeBackend) ActAs(ctx context.Context, id string) (hub.ClientInfo, error) {
	rec, err := f.clients.Active(ctx, id)
	return rec.Info(), err
}

// RevokeClient revokes a client and announces it, as the core does.
func (f *fakeBackend) RevokeClient(ctx context.Context, c service.Caller, ref service.ClientRef) (hub.ClientInfo, error) {
	if err := service.RequireOwner(c, "manage clients"); err != nil {
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

func (f *fakeBackend) NewPairingCode(_ context.Context, c service.Caller, _ service.PairingRequest) (hub.PairingCode, error) {
	if err := service.RequireOwner(c, "pair clients"); err != nil {
		return hub.PairingCode{}, err
	}
	return f.pairing.Issue()
}

// Pair redeems a code as the core does.
func (f *fakeBackend) Pair(ctx context.Context, req service.PairRequest) (service.Paired, error) {
	return f.clients.Pair(ctx, f.pairing, req)
}

// register pairs a client directly, as a redeemed code does.
func (f *fakeBackend) register(t testing.TB, name string) (hub.ClientInfo, string) {
	t.Helper()
	rec, token, err := f.clients.Register(context.Background(), name)
	if err != nil {
		t.Fatal(err)
	}
	return rec.Info(), token
}

func (f *fakeBackend) SubmitJob(ctx context.Context, c service.Caller, spec hub.JobSpec) (hub.Job, error) {
	await := false
	if !c.IsOwner() {
		await = true
		if rec, err := f.clients.Get(ctx, c.Client); err == nil {
			await = !rec.AutoApprove
		}
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	state := "running"
	if await {
		state = hub.StateAwaitingApproval
	}
	j := hub.Job{ID: fmt.Sprintf("job-%d", len(f.prompts)+1), Kind: spec.Kind, State: state, RequestedBy: c.Requester()}
	f.jobs[j.ID] = j
	f.prompts = append(f.prompts, spec.Prompt)
	return j, nil
}

func (f *fakeBackend) GetJob(_ context.Context, _ service.Caller, ref service.JobRef) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if j, ok := f.jobs[ref.ID]; ok {
		return j, nil
	}
	return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", ref.ID)
}

func (f *fakeBackend) move(id, to string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, ok := f.jobs[id]
	if !ok {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	j.State = to
	f.jobs[id] = j
	return j, nil
}

func (f *fakeBackend) CancelJob(_ context.Context, _ service.Caller, ref service.JobRef) (hub.Job, error) {
	return f.move(ref.ID, "cancelled")
}
func (f *fakeBackend) Approve(_ context.Context, c service.Caller, req service.ApprovalRef) (hub.Job, error) {
	if err := service.RequireOwner(c, "decide approvals"); err != nil {
		return hub.Job{}, err
	}
	return f.move(req.JobID, "running")
}
func (f *fakeBackend) Reject(_ context.Context, c service.Caller, req service.RejectRequest) (hub.Job, error) {
	if err := service.RequireOwner(c, "decide approvals"); err != nil {
		return hub.Job{}, err
	}
	return f.move(req.JobID, "failed")
}
func (f *fakeBackend) ListApprovals(_ context.Context, c service.Caller, _ service.ListApprovalsRequest) ([]hub.Approval, error) {
	if err := service.RequireOwner(c, "list approvals"); err != nil {
		return nil, err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	var out []hub.Approval
	for _, j := range f.jobs {
		if j.State == hub.StateAwaitingApproval {
			out = append(out, service.ApprovalOf(j, hub.JobSpec{Kind: j.Kind, RequestedBy: j.RequestedBy}, j.RequestedBy))
		}
	}
	return out, nil
}
func (f *fakeBackend) SetAutoApprove(ctx context.Context, c service.Caller, req service.AutoApproveRequest) (hub.ClientInfo, error) {
	if err := service.RequireOwner(c, "manage clients"); err != nil {
		return hub.ClientInfo{}, err
	}
	rec, err := f.clients.Edit(ctx, req.ID, func(r *clients.Record) { r.AutoApprove = req.AutoApprove })
	return rec.Info(), err
}
func (f *fakeBackend) ListClients(ctx context.Context, c service.Caller, _ service.ListClientsRequest) ([]hub.ClientInfo, error) {
	if err := service.RequireOwner(c, "manage clients"); err != nil {
		return nil, err
	}
	recs, err := f.clients.List(ctx)
	out := make([]hub.ClientInfo, 0, len(recs))
	for _, r := range recs {
		out = append(out, r.Info())
	}
	return out, err
}
func (f *fakeBackend) ListSessions(context.Context, service.Caller, hub.SessionQuery) ([]hub.SessionSummary, error) {
	return []hub.SessionSummary{{ID: "s1", Site: "chatgpt", Title: "one"}}, nil
}
func (f *fakeBackend) SearchSessions(_ context.Context, _ service.Caller, req service.SearchRequest) ([]hub.SessionSummary, error) {
	return []hub.SessionSummary{{ID: "s1", Site: "chatgpt", Title: req.Query}}, nil
}
func (f *fakeBackend) ShowSession(_ context.Context, _ service.Caller, ref service.SessionRef) (hub.Session, error) {
	return hub.Session{SessionSummary: hub.SessionSummary{ID: ref.ID}}, nil
}
func (f *fakeBackend) ListTabs(context.Context, service.Caller, service.ListTabsRequest) ([]hub.Tab, error) {
	return []hub.Tab{{TargetID: "T1", URL: "https://chatgpt.com/"}}, nil
}
func (f *fakeBackend) OpenArtifact(_ context.Context, _ service.Caller, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
	f.mu.Lock()
	data, ok := f.artifacts[jobID+"/"+name]
	f.mu.Unlock()
	if !ok {
		return hub.ArtifactInfo{}, nil, errs.New(errs.ArtifactNotFound, "no artifact %q", name)
	}
	sum := sha256.Sum256(data)
	return hub.ArtifactInfo{Name: name, Size: int64(len(data)), SHA256: hex.EncodeToString(sum[:]), Verified: true}, io.NopCloser(bytes.NewReader(data)), nil
}
func (f *fakeBackend) Events(context.Context) (<-chan hub.Event, error) { return f.events, nil }

func (f *fakeBackend) seenPrompts() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.prompts...)
}

var _ service.Gateway = (*fakeBackend)(nil)

// Retrieve refuses an agent that names a folder, as the core does, and
// answers a receipt for conversation "conv-ok", with the error
// of a run that failed after it began for "conv-failed", and BadInput
// before any receipt otherwise.
func (f *fakeBackend) Retrieve(_ context.Context, c service.Caller, req service.RetrieveRequest) (*service.RetrieveReceipt, error) {
	if !c.IsOwner() && req.OutDir != "" {
		return nil, errs.New(errs.HubForbidden, "agent %s names a folder", c.Client)
	}
	switch req.Conversation {
	case "conv-ok":
		return &service.RetrieveReceipt{Kind: "retrieve", OK: true, ConversationID: req.Conversation, Path: req.OutDir}, nil
	case "conv-failed":
		return &service.RetrieveReceipt{Kind: "retrieve", ConversationID: req.Conversation},
			errs.New(errs.ArtifactNotFound, "no zip in conversation %s", req.Conversation)
	}
	return nil, errs.New(errs.BadInput, "--conv %q is not a ChatGPT conversation id", req.Conversation)
}
