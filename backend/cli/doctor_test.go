package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestSessionsDoctor: a run whose tab was closed fails the freshness gate,
// `ferry sessions doctor` lists it as stale with the open tab of its site
// as the candidate (never taking it), every later doctor says so again, and
// `--recover` reopens its conversation in a new tab and rebinds the run,
// after which poll passes the gate and reattach collects the answer without
// a second send: for a run killed while its answer streamed (the runner
// journals the conversation's address as soon as the site names it) and
// for one that crashed after its turn completed.
func TestSessionsDoctor(t *testing.T) {
	t.Parallel()
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
	streamingPrompt := "Doctored question about sluices"
	streaming := askKilledMidStream(t, h, dataDir, streamingPrompt, "sluices")
	closeTab(t, h, streaming.TargetID)
	// Another ChatGPT tab: the doctor must offer it, but never take it.
	other, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
	if err != nil {
		t.Fatal(err)
	}
	candidate := other.ID()
	_ = other.Detach(ctx)

	report := func(t *testing.T, id string, args ...string) service.DoctorReport {
		t.Helper()
		for _, rp := range doctorAll(t, url, d, args...) {
			if rp.ID == id {
				return rp
			}
		}
		t.Fatalf("sessions doctor %v does not report run %s", args, id)
		return service.DoctorReport{}
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

	t.Run("a second doctor still says why the run is stale and names the candidate tab", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "doctor", "--browser-url", url, d)
		want := streaming.ID + "  chatgpt  " + string(job.StateStale) + "  stale: run " + streaming.ID + ": its tab " + streaming.TargetID + " is gone (candidate tabs: " + candidate + ")"
		if r.code != 0 || !strings.Contains(r.stdout, want) {
			t.Fatalf("exit %d, want a line %q\n%s%s", r.code, want, r.stdout, r.stderr)
		}
		if got := report(t, streaming.ID); got.Verdict != "stale" || got.Candidates != candidate || !strings.Contains(got.Detail, "is gone") {
			t.Fatalf("doctor --json says %+v, want stale with the reason and candidate %s", got, candidate)
		}
	})

	t.Run("doctor --recover reopens the conversation of a run killed mid-stream and rebinds it", func(t *testing.T) {
		before := tabs(t)
		got := report(t, streaming.ID, "--recover")
		if got.Verdict != "recovered" || got.State != string(streaming.State) {
			t.Fatalf("doctor --recover says %+v, want recovered at %s", got, streaming.State)
		}
		s := showSession(t, streaming.ID, d)
		if _, existed := before[s.TargetID]; existed || s.TargetID == "" || s.State != streaming.State {
			t.Fatalf("after recovery the run is %s in tab %q, want %s in a new tab (open before: %v)", s.State, s.TargetID, streaming.State, before)
		}
		if !strings.Contains(got.Detail, s.TargetID) {
			t.Fatalf("doctor's detail %q does not name the new tab %s", got.Detail, s.TargetID)
		}
		if at := tabs(t)[s.TargetID]; convPath(at) != convPath(streaming.ConversationURL) {
			t.Fatalf("the new tab is at %q, want the conversation %q", at, streaming.ConversationURL)
		}
		if again := report(t, streaming.ID); again.Verdict != "ok" {
			t.Fatalf("a doctor after recovery says %+v, want ok", again)
		}
	})

	t.Run("reattach of the recovered mid-stream run collects its answer without a second send", func(t *testing.T) {
		r := ferry(t, nil, "reattach", "--session", streaming.ID, "--browser-url", url, d, "--timeout", "60s")
		// The tab was closed mid-stream: the conversation keeps the answer
		// as far as it had come, and that is what reattach collects.
		answer := strings.TrimSuffix(r.stdout, "\n")
		if r.code != 0 || answer == "" || !strings.HasPrefix(providertest.NormalAnswer(streamingPrompt), answer) {
			t.Fatalf("exit %d, want (a prefix of) the simulator's answer\nstdout %q\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := submissionsOf(h, streamingPrompt); n != 1 {
			t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
		}
		s := showSession(t, streaming.ID, d)
		if s.State != job.StateDone || s.Answer != answer {
			t.Fatalf("after reattach the run is %s with answer %q, want done with the printed answer", s.State, s.Answer)
		}
		// The next ask must find one ChatGPT tab, as before the recovery.
		closeTab(t, h, s.TargetID)
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

	// A run whose tab wandered off its site is stale; once the tab is back
	// on the site the doctor resumes it where it stopped, in the same tab.
	wander, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer wander.Detach(context.WithoutCancel(ctx))
	wandered := job.Session{ID: "run-tab-wandered", Site: "chatgpt", Prompt: "Wandering question about weirs", State: job.StateStreaming,
		Created: time.Now().UTC(), TargetID: wander.ID(), Origin: "cli"}
	seedSessions(t, dataDir, wandered)
	if err := wander.Navigate(ctx, sim.URL(sim.Claude, "/")); err != nil {
		t.Fatal(err)
	}
	t.Run("a run whose tab left its site is stale, and stays so while the tab is away", func(t *testing.T) {
		for range 2 {
			got := report(t, wandered.ID)
			if got.Verdict != "stale" || !strings.Contains(got.Detail, "not on chatgpt") {
				t.Fatalf("doctor says %+v, want stale because the tab is on another site", got)
			}
		}
	})
	if err := wander.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
		t.Fatal(err)
	}
	t.Run("a stale run whose tab is back on its site is resumed in the state it was in", func(t *testing.T) {
		got := report(t, wandered.ID)
		if got.Verdict != "ok" || got.State != string(job.StateStreaming) || !strings.Contains(got.Detail, "live on chatgpt again") {
			t.Fatalf("doctor says %+v, want ok and resumed at streaming", got)
		}
		if s := showSession(t, wandered.ID, d); s.State != job.StateStreaming || s.TargetID != wander.ID() {
			t.Fatalf("after the doctor the run is %s in tab %q, want streaming in %s", s.State, s.TargetID, wander.ID())
		}
	})
}

// askKilledMidStream starts `ferry ask`, lets the answer stream until the
// page has shown the conversation's address and the run has journaled it
// (the runner does at the first partial text), SIGKILLs it, and returns the
// run, still active, which must hold that address.
func askKilledMidStream(t *testing.T, h *providertest.Harness, dataDir, prompt, query string) *job.Session {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, "ask", "--site", "chatgpt", "--browser-url", h.Browser.Endpoint(),
		"--data-dir", dataDir, "--timeout", "45s", prompt)
	cmd.Env = hermeticEnv(t)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	fail := func(format string, args ...any) {
		t.Helper()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		t.Fatalf(format+"\nstderr %s", append(args, errb.String())...)
	}
	conv := ""
	for conv == "" {
		for _, s := range h.Server.Submissions(sim.ChatGPT) {
			if strings.TrimSpace(s.Prompt) == prompt {
				conv = s.ConversationID
			}
		}
		if ctx.Err() != nil {
			fail("the prompt never reached the simulator")
		}
		time.Sleep(10 * time.Millisecond)
	}
	// The tab shows the new chat's transient address until the answer is
	// over: the address journaled mid-stream is the one the stream names.
	journaled(t, ctx, dataDir, `"conversationUrl":"https://chatgpt.com/c/`+conv)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	r := ferry(t, nil, "sessions", "list", "--json", "--query", query, "--data-dir", dataDir)
	var out struct {
		Sessions []job.Session `json:"sessions"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || len(out.Sessions) != 1 {
		t.Fatalf("sessions list: exit %d, want one run\n%s%s", r.code, r.stdout, r.stderr)
	}
	s := showSession(t, out.Sessions[0].ID, "--data-dir="+dataDir)
	if s.State != job.StateStreaming || s.TargetID == "" {
		t.Fatalf("the run killed mid-stream is %s in tab %q, want streaming in its tab", s.State, s.TargetID)
	}
	if !strings.HasSuffix(convPath(s.ConversationURL), "/c/"+conv) {
		t.Fatalf("the run killed mid-stream journaled the conversation %q, want .../c/%s", s.ConversationURL, conv)
	}
	return &s
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
func doctorAll(t *testing.T, url, dataDirFlag string, args ...string) []service.DoctorReport {
	t.Helper()
	r := ferry(t, nil, append([]string{"sessions", "doctor", "--json", "--browser-url", url, dataDirFlag}, args...)...)
	var out struct {
		Sessions []service.DoctorReport `json:"sessions"`
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
