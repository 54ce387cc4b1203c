package jobs

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/runs/runstest"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// openTestRunner opens the data directory dir as an owner does and
// returns the runner of its jobs with opts, closed at the end of t (before
// the store).
func openTestRunner(t testing.TB, dir string, opts Options) *Runner {
	t.Helper()
	d := runstest.Open(t, dir)
	h := New(runs.Deps{Paths: d.Paths, Store: d.Store, Settings: d.Settings, History: d.History, Leases: tabs.NewLeases(), Ledger: &tabs.Ledger{}}, opts)
	t.Cleanup(func() { _ = h.Close(context.Background()) })
	return h
}

func TestRunnerJobsAwaitingApproval(t *testing.T) {
	ctx := context.Background()
	h := openTestRunner(t, t.TempDir(), Options{})
	spec := service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "hold me", RequestedBy: "c_agent"}

	t.Run("a job created on hold waits and a rejection fails it with approval_rejected", func(t *testing.T) {
		j, err := h.CreateJob(ctx, spec, CreateOptions{AwaitApproval: true})
		if err != nil || j.State != service.StateAwaitingApproval {
			t.Fatalf("create: %+v %v", j, err)
		}
		j, err = h.RejectJob(ctx, j.ID, "too risky")
		if err != nil || j.State != string(job.StateFailed) || !errs.Has(j.Error, errs.ApprovalRejected) {
			t.Fatalf("reject: %+v %v", j, err)
		}
		if _, err := h.ApproveJob(ctx, j.ID); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("approving a rejected job: %v", err)
		}
		if _, n, _ := mustSessions(t, h).List(ctx, job.Filter{}); n != 0 {
			t.Fatalf("a rejected job created %d sessions", n)
		}
	})
	t.Run("a job cancelled while it waits ends cancelled", func(t *testing.T) {
		j, _ := h.CreateJob(ctx, spec, CreateOptions{AwaitApproval: true})
		j, err := h.CancelJob(ctx, j.ID)
		if err != nil || j.State != string(job.StateCancelled) {
			t.Fatalf("cancel: %+v %v", j, err)
		}
	})
	t.Run("bad specs are refused before anything is stored", func(t *testing.T) {
		for _, sp := range []service.JobRequest{
			{Kind: service.KindCode, Site: "claude", Prompt: "x"},                       // no sandbox
			{Kind: service.KindCode, Site: "chatgpt", Prompt: "x", OutDir: t.TempDir()}, // an agent's path
			{Kind: service.KindCode, Site: "chatgpt", Prompt: "x", Contract: "all"},     // unauthorized
			{Kind: service.KindAsk, Prompt: "no site"},
			{Kind: service.KindAsk, Site: "nosuchsite", Prompt: "x"},
		} {
			if _, err := h.CreateJob(ctx, sp, CreateOptions{AwaitApproval: true}); err == nil || errs.CodeOf(err) == errs.Internal {
				t.Fatalf("spec %+v: %v", sp, err)
			}
		}
	})
	t.Run("a job whose run has ended shows finishing until the job records its end", func(t *testing.T) {
		// A reattach job moves its session to done, then records what it
		// found: a client that stopped polling at done would miss it.
		s, err := mustSessions(t, h).Create(ctx, &job.Session{Site: "chatgpt", Prompt: "p", State: job.StateDone})
		if err != nil {
			t.Fatal(err)
		}
		now := time.Now().UTC()
		rec := jobRecord{ID: "job-finishing", Kind: service.KindReattach, Session: s.ID, CreatedAt: now, UpdatedAt: now, State: jobStateStarting}
		if err := h.jobs.Put(rec); err != nil {
			t.Fatal(err)
		}
		release := make(chan struct{})
		h.startFunc(rec, func(context.Context) {
			<-release
			rec.Ended, rec.Finding = true, &job.Finding{Action: "collect"}
			h.mu.Lock()
			defer h.mu.Unlock()
			_ = h.jobs.Put(rec)
		})
		j, err := h.GetJob(ctx, rec.ID)
		if err != nil || j.State != jobStateFinishing {
			close(release)
			t.Fatalf("while the job records its end: %+v %v", j, err)
		}
		close(release)
		h.waitStopped(ctx, rec.ID)
		j, _ = h.GetJob(ctx, rec.ID)
		if d := j.Detail; d == nil || j.State != string(job.StateDone) || !d.Ended || d.Finding == nil {
			t.Fatalf("after: state %s, detail %+v", j.State, j.Detail)
		}
	})
	t.Run("an unknown job is not found", func(t *testing.T) {
		if _, err := h.GetJob(ctx, "job-nope"); !errs.Has(err, errs.HubNotFound) {
			t.Fatalf("%v", err)
		}
	})
	t.Run("without a browser the tab list is empty", func(t *testing.T) {
		tabs, err := h.ListTabs(ctx)
		if err != nil || tabs == nil || len(tabs) != 0 {
			t.Fatalf("%v %v", tabs, err)
		}
	})
}

func TestOpenVerifiedNeedsAMatchingSidecar(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, data []byte, prov *artifact.Provenance) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if prov != nil {
			b, _ := json.Marshal(prov)
			if err := os.WriteFile(p+artifact.SidecarSuffix, b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		return p
	}
	data := []byte("PK zip bytes")
	sum := sha256.Sum256(data)
	good := artifact.Provenance{SHA256: hex.EncodeToString(sum[:]), Size: int64(len(data))}
	good.Verdict = &artifact.Verdict{OK: true}
	bad := good
	bad.Verdict = &artifact.Verdict{OK: false}
	cases := []struct {
		name     string
		path     string
		verified bool
		code     errs.Code
	}{
		{"a file with an OK sidecar of its digest is verified", write("a.zip", data, &good), true, ""},
		{"a file without a sidecar is not verified", write("b.zip", data, nil), false, ""},
		{"a file whose verdict failed is not verified", write("c.zip", data, &bad), false, ""},
		{"a file changed after verification is not verified", write("d.zip", []byte("tampered"), &good), false, ""},
	}
	outside := filepath.Join(t.TempDir(), "real.zip")
	os.WriteFile(outside, data, 0o644)
	cases = append(cases, struct {
		name     string
		path     string
		verified bool
		code     errs.Code
	}{"a file outside the artifacts directory is unsafe", outside, false, errs.ArtifactUnsafe},
		struct {
			name     string
			path     string
			verified bool
			code     errs.Code
		}{"a file that is gone is not found", filepath.Join(dir, "gone.zip"), false, errs.ArtifactNotFound})
	link := filepath.Join(dir, "link.zip")
	os.Symlink(outside, link)
	cases = append(cases, struct {
		name     string
		path     string
		verified bool
		code     errs.Code
	}{"a symlink out of the artifacts directory is unsafe", link, false, errs.ArtifactUnsafe})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, rc, err := openVerified(dir, c.path, filepath.Base(c.path))
			if c.code != "" {
				if !errs.Has(err, c.code) {
					t.Fatalf("err %v, want %s", err, c.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if info.Verified != c.verified || int64(len(b)) != info.Size {
				t.Fatalf("info %+v", info)
			}
		})
	}
}

func mustSessions(t *testing.T, h *Runner) *job.Repo {
	t.Helper()
	repo, err := h.d.History(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return repo
}
