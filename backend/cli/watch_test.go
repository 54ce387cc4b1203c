package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// slowPace streams the simulator's ≈330-rune answer in ≈11 s, so that a
// run killed just after its send is still streaming when the next command
// attaches to it.
var slowPace = sim.WithPace(3, 100*time.Millisecond)

// submissionsOf counts the simulator's ChatGPT submissions of prompt.
func submissionsOf(h *providertest.Harness, prompt string) int {
	n := 0
	for _, s := range h.Server.Submissions(sim.ChatGPT) {
		if strings.TrimSpace(s.Prompt) == prompt {
			n++
		}
	}
	return n
}

// askKilledAfterSend starts `ferry ask`, SIGKILLs it as soon as the
// simulator has the prompt (the answer is streaming) and returns the run
// the history shows for it, still active.
func askKilledAfterSend(t *testing.T, h *providertest.Harness, dataDir, prompt, query string) *job.Session {
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
	for submissionsOf(h, prompt) == 0 {
		if ctx.Err() != nil {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the prompt never reached the simulator: %s", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	r := ferry(t, nil, "sessions", "list", "--json", "--query", query, "--data-dir", dataDir)
	var out struct {
		Sessions []job.Session `json:"sessions"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
		t.Fatalf("sessions list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if len(out.Sessions) != 1 || !out.Sessions[0].State.Active() {
		t.Fatalf("after the kill the history shows %+v, want one active run", out.Sessions)
	}
	r = ferry(t, nil, "sessions", "show", "--json", out.Sessions[0].ID, "--data-dir", dataDir)
	var shown struct {
		Session job.Session `json:"session"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil || shown.Session.TargetID == "" {
		t.Fatalf("sessions show: exit %d, want the run bound to its tab\n%s%s", r.code, r.stdout, r.stderr)
	}
	return &shown.Session
}

// timedWriter records when each write arrived.
type timedWriter struct {
	mu     sync.Mutex
	start  time.Time
	writes []timedWrite
}

type timedWrite struct {
	at   time.Duration
	text string
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.writes = append(w.writes, timedWrite{at: time.Since(w.start), text: string(p)})
	return len(p), nil
}

func (w *timedWriter) String() string {
	w.mu.Lock()
	defer w.mu.Unlock()
	var b strings.Builder
	for _, x := range w.writes {
		b.WriteString(x.text)
	}
	return b.String()
}

// TestWatch: `ferry watch` on a run whose ferry was killed mid-stream
// follows it to the end in the same tab, streaming the answer's partial
// text as it grows, and prints the answer, never sending the prompt again.
func TestWatch(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(slowPace)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	prompt := "Watched question about canal locks"
	answer := providertest.NormalAnswer(prompt)
	s := askKilledAfterSend(t, h, dataDir, prompt, "canal locks")

	t.Run("watch streams partial text while the answer grows and ends with the answer", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "watch", "--session", s.ID, "--browser-url", h.Browser.Endpoint(),
			"--data-dir", dataDir, "--timeout", "45s")
		cmd.Env = hermeticEnv(t)
		stderr := &timedWriter{start: time.Now()}
		var stdout bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, stderr
		err := cmd.Run()
		took := time.Since(stderr.start)
		if err != nil {
			t.Fatalf("watch from %s: %v\nstdout %s\nstderr %s", s.State, err, stdout.String(), stderr.String())
		}
		if stdout.String() != answer+"\n" {
			t.Fatalf("watch printed %q, want the answer %q", stdout.String(), answer)
		}
		// Partial text is what stderr carries besides the state lines and
		// what reattach found.
		var partial []timedWrite
		for _, w := range stderr.writes {
			text := w.text
			if strings.HasPrefix(text, "[") || strings.HasPrefix(text, "reattach:") || strings.TrimSpace(text) == "" {
				continue
			}
			partial = append(partial, w)
		}
		if len(partial) < 3 {
			t.Fatalf("watch wrote %d pieces of partial text, want the answer as it grows:\n%s", len(partial), stderr.String())
		}
		streamed := stderr.String()
		if !strings.Contains(streamed, "That is the whole answer.") || !strings.Contains(streamed, "[done]") {
			t.Fatalf("the streamed text lacks the answer's end or the final state:\n%s", streamed)
		}
		if span := partial[len(partial)-1].at - partial[0].at; span < 500*time.Millisecond {
			t.Fatalf("partial text arrived within %s, all at once: not streamed", span)
		}
		if n := submissionsOf(h, prompt); n != 1 {
			t.Fatalf("the simulator saw %d submissions of the prompt, want exactly 1", n)
		}
		t.Logf("watch from %s took %s; %d partial writes over %s", s.State, took, len(partial), partial[len(partial)-1].at-partial[0].at)
	})

	t.Run("watch --json of the finished run prints its record without partial text", func(t *testing.T) {
		r := ferry(t, nil, "watch", "--session", s.ID, "--json", "--data-dir", dataDir)
		var out struct {
			Session job.Session `json:"session"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if out.Session.ID != s.ID || out.Session.State != job.StateDone || out.Session.Answer != answer || r.stderr != "" {
			t.Fatalf("watch --json: %+v, stderr %q", out.Session, r.stderr)
		}
	})

	t.Run("watch of a run whose tab is gone fails stale and sends nothing", func(t *testing.T) {
		other := "Second watched question about weirs"
		s2 := askKilledAfterSend(t, h, dataDir, other, "weirs")
		closeTab(t, h, s2.TargetID)
		r := ferry(t, nil, "watch", "--session", s2.ID, "--browser-url", h.Browser.Endpoint(), "--data-dir", dataDir, "--json")
		if r.code != exitOf(errs.SessionStale) || !strings.Contains(r.stdout, "session_stale") || !strings.Contains(r.stdout, s2.TargetID) {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := submissionsOf(h, other); n != 1 {
			t.Fatalf("the simulator saw %d submissions, want the killed ask's 1", n)
		}
	})
}

// closeTab closes the tab with target id and waits until Chromium no
// longer lists it (it closes targets asynchronously).
func closeTab(t *testing.T, h *providertest.Harness, id string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	p, err := h.Browser.Page(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Close(ctx); err != nil {
		t.Fatal(err)
	}
	for {
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		gone := true
		for _, tg := range targets {
			if tg.ID == id {
				gone = false
			}
		}
		if gone {
			return
		}
		if ctx.Err() != nil {
			t.Fatalf("tab %s still listed after closing it", id)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
