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

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// fakeBackend stands in for Ferry's core (the job pipeline and the history,
// not ready yet) so the gateway's routes can be tested. It records what the
// hub asked of it.
type fakeBackend struct {
	mu        sync.Mutex
	n         int
	jobs      map[string]hub.Job
	specs     []hub.JobSpec
	opts      []hub.CreateOptions
	approved  []string
	rejected  map[string]string
	sessions  []hub.SessionSummary
	tabs      []hub.Tab
	artifacts map[string][]byte
	verified  bool
	events    chan hub.Event
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{
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

func (f *fakeBackend) CreateJob(_ context.Context, spec hub.JobSpec, opts hub.CreateOptions) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.n++
	state := "running"
	if opts.AwaitApproval {
		state = hub.StateAwaitingApproval
	}
	j := hub.Job{ID: fmt.Sprintf("job-%d", f.n), Kind: spec.Kind, State: state, RequestedBy: spec.RequestedBy, CreatedAt: time.Unix(1700000000, 0).UTC()}
	f.jobs[j.ID] = j
	f.specs = append(f.specs, spec)
	f.opts = append(f.opts, opts)
	return j, nil
}

func (f *fakeBackend) GetJob(_ context.Context, id string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, ok := f.jobs[id]
	if !ok {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	return j, nil
}

func (f *fakeBackend) setState(id, want, to string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	j, ok := f.jobs[id]
	if !ok {
		return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
	}
	if want != "" && j.State != want {
		return hub.Job{}, errs.New(errs.BadInput, "job %s is %s, not %s", id, j.State, want)
	}
	j.State = to
	f.jobs[id] = j
	return j, nil
}

func (f *fakeBackend) CancelJob(_ context.Context, id string) (hub.Job, error) {
	return f.setState(id, "", "cancelled")
}

func (f *fakeBackend) ApproveJob(_ context.Context, id string) (hub.Job, error) {
	j, err := f.setState(id, hub.StateAwaitingApproval, "running")
	if err == nil {
		f.mu.Lock()
		f.approved = append(f.approved, id)
		f.mu.Unlock()
	}
	return j, err
}

func (f *fakeBackend) RejectJob(_ context.Context, id, reason string) (hub.Job, error) {
	j, err := f.setState(id, hub.StateAwaitingApproval, "failed")
	if err == nil {
		f.mu.Lock()
		f.rejected[id] = reason
		f.mu.Unlock()
	}
	return j, err
}

func (f *fakeBackend) ListSessions(_ context.Context, q hub.SessionQuery) ([]hub.SessionSummary, error) {
	var out []hub.SessionSummary
	for _, s := range f.sessions {
		if q.Site == "" || s.Site == q.Site {
			out = append(out, s)
		}
	}
	return out, nil
}

func (f *fakeBackend) SearchSessions(_ context.Context, q string, limit int) ([]hub.SessionSummary, error) {
	var out []hub.SessionSummary
	for _, s := range f.sessions {
		if bytes.Contains([]byte(s.Title), []byte(q)) && len(out) < limit {
			out = append(out, s)
		}
	}
	return out, nil
}

func (f *fakeBackend) ShowSession(_ context.Context, id string) (hub.Session, error) {
	for _, s := range f.sessions {
		if s.ID == id {
			return hub.Session{SessionSummary: s}, nil
		}
	}
	return hub.Session{}, errs.New(errs.SessionNotFound, "no session %q", id)
}

func (f *fakeBackend) ListTabs(context.Context) ([]hub.Tab, error) { return f.tabs, nil }

func (f *fakeBackend) OpenArtifact(_ context.Context, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
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

func (f *fakeBackend) createOpts() []hub.CreateOptions {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]hub.CreateOptions(nil), f.opts...)
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

var (
	_ hub.Backend     = (*fakeBackend)(nil)
	_ hub.EventSource = (*fakeBackend)(nil)
)
