package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestSessionsDoctor: a run whose tab was closed mid-stream fails the
// freshness gate, `ferry sessions doctor` lists it as stale with the open
// tab of its site as the candidate, and `--recover` reopens its
// conversation in a new tab and rebinds the run, after which poll passes
// the gate and reattach collects the answer without a second send.
func TestSessionsDoctor(t *testing.T) {
	h, err := providertest.Start(slowPace)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	url := h.Browser.Endpoint()
	d := "--data-dir=" + dataDir
	prompt := "Doctored question about tide mills"
	s := askKilledAfterSend(t, h, dataDir, prompt, "tide mills")
	if !strings.HasPrefix(s.ConversationURL, "https://chatgpt.com/c/") {
		t.Fatalf("the killed run has no conversation URL to recover from: %q", s.ConversationURL)
	}
	closeTab(t, h, s.TargetID)
	// Another ChatGPT tab: the doctor must offer it, but never take it.
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	other, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
	if err != nil {
		t.Fatal(err)
	}
	candidate := other.ID()
	_ = other.Detach(ctx)

	doctor := func(t *testing.T, args ...string) []core.DoctorReport {
		t.Helper()
		r := ferry(t, nil, append([]string{"sessions", "doctor", "--json", "--browser-url", url, d}, args...)...)
		var out struct {
			Sessions []core.DoctorReport `json:"sessions"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("sessions doctor %v: exit %d\nstdout %s\nstderr %s", args, r.code, r.stdout, r.stderr)
		}
		if len(out.Sessions) != 1 || out.Sessions[0].ID != s.ID {
			t.Fatalf("sessions doctor %v reports %+v, want run %s alone", args, out.Sessions, s.ID)
		}
		return out.Sessions
	}

	t.Run("poll of the run fails the freshness gate naming the candidate tab", func(t *testing.T) {
		r := ferry(t, nil, "poll", "--session", s.ID, "--browser-url", url, d, "--json")
		if r.code != exitOf(errs.SessionStale) {
			t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, exitOf(errs.SessionStale), r.stdout, r.stderr)
		}
		var out struct {
			Error errs.Envelope `json:"error"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Error.Code != errs.SessionStale || out.Error.Evidence["candidates"] != candidate {
			t.Fatalf("stdout %s (%v), want session_stale with candidate %s", r.stdout, err, candidate)
		}
	})

	t.Run("doctor lists the run as stale with the candidate tab and marks it stale", func(t *testing.T) {
		got := doctor(t)[0]
		if got.Verdict != "stale" || got.Candidates != candidate || !strings.Contains(got.Detail, s.TargetID) {
			t.Fatalf("doctor says %+v, want stale with candidate %s", got, candidate)
		}
		r := ferry(t, nil, "sessions", "doctor", "--browser-url", url, d)
		if r.code != 0 || !strings.Contains(r.stdout, s.ID) || !strings.Contains(r.stdout, "stale") || !strings.Contains(r.stdout, "candidate tabs: "+candidate) {
			t.Fatalf("human output: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		r = ferry(t, nil, "poll", "--session", s.ID, d)
		if r.code != 0 || !strings.Contains(r.stdout, string(job.StateStale)) {
			t.Fatalf("poll after the doctor: exit %d, want the run stale\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	var rebound string
	t.Run("doctor --recover reopens the conversation in a new tab and rebinds the run", func(t *testing.T) {
		got := doctor(t, "--recover")[0]
		if got.Verdict != "recovered" {
			t.Fatalf("doctor --recover says %+v, want recovered", got)
		}
		r := ferry(t, nil, "sessions", "show", "--json", s.ID, d)
		var shown struct {
			Session job.Session `json:"session"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
			t.Fatalf("sessions show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		rebound = shown.Session.TargetID
		if rebound == "" || rebound == s.TargetID || rebound == candidate || !shown.Session.State.Active() {
			t.Fatalf("after recovery the run is %s in tab %q (was %s, candidate %s), want active in a new tab",
				shown.Session.State, rebound, s.TargetID, candidate)
		}
		if !strings.Contains(got.Detail, rebound) {
			t.Fatalf("doctor's detail %q does not name the new tab %s", got.Detail, rebound)
		}
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var at string
		for _, tg := range targets {
			if tg.ID == rebound {
				at = tg.URL
			}
		}
		if convPath(at) != convPath(s.ConversationURL) {
			t.Fatalf("the new tab is at %q, want the conversation %q", at, s.ConversationURL)
		}
	})

	t.Run("after recovery poll passes the freshness gate", func(t *testing.T) {
		r := ferry(t, nil, "poll", "--session", s.ID, "--browser-url", url, d)
		if r.code != 0 || !strings.Contains(r.stdout, "tab alive") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if got := doctor(t)[0]; got.Verdict != "ok" {
			t.Fatalf("doctor after recovery says %+v, want ok", got)
		}
	})

	t.Run("reattach in the rebound tab collects the answer without a second send", func(t *testing.T) {
		r := ferry(t, nil, "reattach", "--session", s.ID, "--browser-url", url, d, "--timeout", "45s")
		if r.code != 0 || r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := submissionsOf(h, prompt); n != 1 {
			t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
		}
		if got := doctorAll(t, url, d); len(got) != 0 {
			t.Fatalf("doctor after the run finished reports %+v, want nothing", got)
		}
	})
}

// doctorAll is the doctor's JSON report of every active or stale run.
func doctorAll(t *testing.T, url, dataDirFlag string) []core.DoctorReport {
	t.Helper()
	r := ferry(t, nil, "sessions", "doctor", "--json", "--browser-url", url, dataDirFlag)
	var out struct {
		Sessions []core.DoctorReport `json:"sessions"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("sessions doctor: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	return out.Sessions
}

// convPath is a conversation address without its query (the stored one
// may carry parameters the page drops).
func convPath(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i]
	}
	return u
}
