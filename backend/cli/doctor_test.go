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

// TestSessionsDoctor: a run whose tab was closed fails the freshness gate,
// `ferry sessions doctor` lists it as stale with the open tab of its site
// as the candidate (never taking it), and `--recover` reopens its
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
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()

	// A ferry killed while the answer streams, then its tab closed.
	streaming := askKilledAfterSend(t, h, dataDir, "Doctored question about sluices", "sluices")
	closeTab(t, h, streaming.TargetID)
	// Another ChatGPT tab: the doctor must offer it, but never take it.
	other, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
	if err != nil {
		t.Fatal(err)
	}
	candidate := other.ID()
	_ = other.Detach(ctx)

	report := func(t *testing.T, id string, args ...string) core.DoctorReport {
		t.Helper()
		for _, rp := range doctorAll(t, url, d, args...) {
			if rp.ID == id {
				return rp
			}
		}
		t.Fatalf("sessions doctor %v does not report run %s", args, id)
		return core.DoctorReport{}
	}
	tabs := func(t *testing.T) map[string]string {
		t.Helper()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		for _, tg := range targets {
			out[tg.ID] = tg.URL
		}
		return out
	}

	t.Run("poll of a run whose tab is gone fails the freshness gate naming the candidate tab", func(t *testing.T) {
		r := ferry(t, nil, "poll", "--session", streaming.ID, "--browser-url", url, d, "--json")
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
		r := ferry(t, nil, "sessions", "doctor", "--browser-url", url, d)
		want := streaming.ID + "  chatgpt  " + string(streaming.State) + "  stale: run " + streaming.ID + ": its tab " + streaming.TargetID + " is gone (candidate tabs: " + candidate + ")"
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("exit %d, want a line %q\n%s%s", r.code, want, r.stdout, r.stderr)
		}
		// The doctor marked it stale: the JSON report and poll say so.
		if got := report(t, streaming.ID); got.Verdict != "stale" || got.State != string(job.StateStale) {
			t.Fatalf("doctor --json says %+v, want the run stale", got)
		}
		r = ferry(t, nil, "poll", "--session", streaming.ID, d)
		if r.code != 0 || !strings.Contains(r.stdout, string(job.StateStale)) {
			t.Fatalf("poll after the doctor: exit %d, want the run stale\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	t.Run("doctor --recover of a run killed mid-stream says it has no conversation to reopen", func(t *testing.T) {
		// The runner journals the conversation URL when the turn completes,
		// so a run that lost its tab while streaming has none (README known
		// limits); the doctor must say so and open nothing.
		before := tabs(t)
		got := report(t, streaming.ID, "--recover")
		if got.Verdict != "stale" || !strings.Contains(got.Detail, "no conversation URL") {
			t.Fatalf("doctor --recover says %+v, want stale without a conversation to reopen", got)
		}
		if after := tabs(t); len(after) != len(before) {
			t.Fatalf("doctor --recover opened tabs: %v, before %v", after, before)
		}
	})

	// A run that crashed after its turn completed has its conversation URL
	// journaled: it is what recovery reopens. The answered run below
	// provides a real conversation of the simulator; the crashed record is
	// written through the repository as the runner leaves it at completed,
	// bound to a tab that no longer exists.
	prompt := "Completed question about tide mills"
	r := ferry(t, nil, "ask", "--site", "chatgpt", "--browser-url", url, d, "--timeout", "45s", "--json", prompt)
	var asked struct {
		Session string `json:"session"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &asked) != nil {
		t.Fatalf("ask: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	done := showSession(t, asked.Session, d)
	if !strings.HasPrefix(done.ConversationURL, "https://chatgpt.com/c/") {
		t.Fatalf("the answered run has no conversation URL: %q", done.ConversationURL)
	}
	crashed := job.Session{ID: "run-crashed-after-completion", Site: "chatgpt", Prompt: prompt, State: job.StateCompleted,
		Created: time.Now().UTC(), TargetID: streaming.TargetID, ConversationURL: done.ConversationURL, Origin: "cli"}
	seedSessions(t, dataDir, crashed)

	var rebound string
	t.Run("doctor --recover reopens the conversation in a new tab and rebinds the run", func(t *testing.T) {
		before := tabs(t)
		got := report(t, crashed.ID, "--recover")
		if got.Verdict != "recovered" {
			t.Fatalf("doctor --recover says %+v, want recovered", got)
		}
		s := showSession(t, crashed.ID, d)
		rebound = s.TargetID
		if _, existed := before[rebound]; existed || rebound == "" || s.State != job.StateCompleted {
			t.Fatalf("after recovery the run is %s in tab %q, want %s in a new tab (open before: %v)", s.State, rebound, job.StateCompleted, before)
		}
		if !strings.Contains(got.Detail, rebound) {
			t.Fatalf("doctor's detail %q does not name the new tab %s", got.Detail, rebound)
		}
		if at := tabs(t)[rebound]; convPath(at) != convPath(done.ConversationURL) {
			t.Fatalf("the new tab is at %q, want the conversation %q", at, done.ConversationURL)
		}
	})

	t.Run("after recovery poll passes the freshness gate and the doctor says ok", func(t *testing.T) {
		r := ferry(t, nil, "poll", "--session", crashed.ID, "--browser-url", url, d)
		if r.code != 0 || !strings.Contains(r.stdout, "tab alive") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if got := report(t, crashed.ID); got.Verdict != "ok" {
			t.Fatalf("doctor after recovery says %+v, want ok", got)
		}
	})

	t.Run("reattach in the rebound tab collects the answer without a second send", func(t *testing.T) {
		r := ferry(t, nil, "reattach", "--session", crashed.ID, "--browser-url", url, d, "--timeout", "45s")
		if r.code != 0 || r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("exit %d\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := submissionsOf(h, prompt); n != 1 {
			t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
		}
		if s := showSession(t, crashed.ID, d); s.State != job.StateDone {
			t.Fatalf("after reattach the run is %s, want done", s.State)
		}
	})
}

// showSession is the record `ferry sessions show --json` prints.
func showSession(t *testing.T, id, dataDirFlag string) job.Session {
	t.Helper()
	r := ferry(t, nil, "sessions", "show", "--json", id, dataDirFlag)
	var shown struct {
		Session job.Session `json:"session"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
		t.Fatalf("sessions show %s: exit %d\n%s%s", id, r.code, r.stdout, r.stderr)
	}
	return shown.Session
}

// doctorAll is the doctor's JSON report of every active or stale run.
func doctorAll(t *testing.T, url, dataDirFlag string, args ...string) []core.DoctorReport {
	t.Helper()
	r := ferry(t, nil, append([]string{"sessions", "doctor", "--json", "--browser-url", url, dataDirFlag}, args...)...)
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
