package client_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
)

// fakeBackend stands in for Ferry's core (not ready yet) behind the hub, so
// the client can be tested against a real hub. It records the jobs asked for.
type fakeBackend struct {
	mu        sync.Mutex
	jobs      map[string]hub.Job
	prompts   []string
	artifacts map[string][]byte
	events    chan hub.Event
}

func newFakeBackend() *fakeBackend {
	return &fakeBackend{jobs: map[string]hub.Job{}, artifacts: map[string][]byte{}, events: make(chan hub.Event, 64)}
}

func (f *fakeBackend) CreateJob(_ context.Context, spec hub.JobSpec, opts hub.CreateOptions) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	state := "running"
	if opts.AwaitApproval {
		state = hub.StateAwaitingApproval
	}
	j := hub.Job{ID: fmt.Sprintf("job-%d", len(f.prompts)+1), Kind: spec.Kind, State: state, RequestedBy: spec.RequestedBy}
	f.jobs[j.ID] = j
	f.prompts = append(f.prompts, spec.Prompt)
	return j, nil
}

func (f *fakeBackend) GetJob(_ context.Context, id string) (hub.Job, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if j, ok := f.jobs[id]; ok {
		return j, nil
	}
	return hub.Job{}, errs.New(errs.HubNotFound, "no job %q", id)
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

func (f *fakeBackend) CancelJob(_ context.Context, id string) (hub.Job, error) {
	return f.move(id, "cancelled")
}
func (f *fakeBackend) ApproveJob(_ context.Context, id string) (hub.Job, error) {
	return f.move(id, "running")
}
func (f *fakeBackend) RejectJob(_ context.Context, id, _ string) (hub.Job, error) {
	return f.move(id, "failed")
}
func (f *fakeBackend) ListSessions(context.Context, hub.SessionQuery) ([]hub.SessionSummary, error) {
	return []hub.SessionSummary{{ID: "s1", Site: "chatgpt", Title: "one"}}, nil
}
func (f *fakeBackend) SearchSessions(_ context.Context, q string, _ int) ([]hub.SessionSummary, error) {
	return []hub.SessionSummary{{ID: "s1", Site: "chatgpt", Title: q}}, nil
}
func (f *fakeBackend) ShowSession(_ context.Context, id string) (hub.Session, error) {
	return hub.Session{SessionSummary: hub.SessionSummary{ID: id}}, nil
}
func (f *fakeBackend) ListTabs(context.Context) ([]hub.Tab, error) {
	return []hub.Tab{{TargetID: "T1", URL: "https://chatgpt.com/"}}, nil
}
func (f *fakeBackend) OpenArtifact(_ context.Context, jobID, name string) (hub.ArtifactInfo, io.ReadCloser, error) {
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

var _ hub.Backend = (*fakeBackend)(nil)
