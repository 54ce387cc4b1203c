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

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// policyCooldown is the --cooldown of these runs; the simulator's lock
// (1 s) ends before it, as a real site's lock ends before the 300 s default.
const policyCooldown = 2 * time.Second

// askPolicyJSON is `ferry ask --json` with the fields these tests read.
type askPolicyJSON struct {
	askJSON
	Error *errs.Envelope `json:"error"`
}

// policyHarness is a simulator (1 s rate-limit lock) with a headless
// Chromium that ferry attaches to.
type policyHarness struct {
	h    *providertest.Harness
	url  string
	data string
}

func newPolicyHarness(t *testing.T) *policyHarness {
	t.Helper()
	h, err := providertest.Start(sim.WithPace(40, 5*time.Millisecond), sim.WithRateLimitLock(time.Second))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(h.Close)
	return &policyHarness{h: h, url: h.Browser.Endpoint(), data: t.TempDir()}
}

// tab opens ChatGPT in a new tab, closed with the test.
func (p *policyHarness) tab(t *testing.T) *browser.Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	tab, err := p.h.Browser.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = tab.Close(context.Background()) })
	if err := tab.Navigate(ctx, sim.URL(sim.ChatGPT, "/")); err != nil {
		t.Fatal(err)
	}
	return tab
}

// ask runs `ferry ask --json` on the tab and decodes its one JSON object.
func (p *policyHarness) ask(t *testing.T, tab *browser.Page, prompt string, extra ...string) (result, askPolicyJSON) {
	t.Helper()
	args := append([]string{"ask", "--tab", tab.ID(), "--browser-url", p.url, "--data-dir", p.data, "--timeout", "45s",
		"--cooldown", policyCooldown.String(), "--json"}, extra...)
	r := ferry(t, nil, append(args, "--prompt", prompt)...)
	var out askPolicyJSON
	if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
		t.Fatalf("stdout is not one JSON object (%v); exit %d\nstdout %s\nstderr %s", err, r.code, r.stdout, r.stderr)
	}
	return r, out
}

// subs returns the simulator's ChatGPT submissions of exactly prompt.
func (p *policyHarness) subs(prompt string) []sim.Submission {
	var out []sim.Submission
	for _, s := range p.h.Server.Submissions(sim.ChatGPT) {
		if strings.TrimSpace(s.Prompt) == prompt {
			out = append(out, s)
		}
	}
	return out
}

// lift waits until the simulator has refused prompt once, then lets the
// site answer again (its lock ends), as a real site's lock ends before the
// cooldown does. It returns a function that stops waiting.
func (p *policyHarness) lift(prompt string) (stop func()) {
	done := make(chan struct{})
	ended := make(chan struct{})
	go func() {
		defer close(ended)
		for {
			for _, s := range p.subs(prompt) {
				if s.Refused {
					p.h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
					return
				}
			}
			select {
			case <-done:
				return
			case <-time.After(10 * time.Millisecond):
			}
		}
	}()
	return func() { close(done); <-ended }
}

var rateLimited = sim.Scenario{Name: sim.ScenarioRateLimit, Params: map[string]string{"lock": "1s"}}

// TestAskAppliesTheInterstitialPolicies runs the built ferry binary against
// the simulator's interstitials: a rate limit is answered ("Got it"),
// waited out for --cooldown and retried once on the same tab; a rate limit
// that persists ends the run as rate_limited after that one retry; a
// conversation at its maximum length rolls over to a new chat with one
// resubmit. Each policy is recorded in the --json result.
func TestAskAppliesTheInterstitialPolicies(t *testing.T) {
	t.Parallel()
	p := newPolicyHarness(t)
	srv := p.h.Server

	// The cases share the simulator's per-site lock: they run in turn.
	t.Run("a rate limit shown once is acknowledged, waited out and retried once with the answer on stdout", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := p.tab(t)
		prompt := "policy: which ferry runs after a rate limit?"
		stop := p.lift(prompt)
		r, out := p.ask(t, tab, prompt)
		stop()
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if out.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("answer %q, want the simulator's answer to the prompt", out.Answer)
		}
		subs := p.subs(prompt)
		if len(subs) != 2 || !subs[0].Refused || subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want 2 submissions: refused, then answered", subs)
		}
		if gap := subs[1].At.Sub(subs[0].At); gap < policyCooldown {
			t.Fatalf("the retry came %s after the refusal, before the %s cooldown ended", gap, policyCooldown)
		}
		if len(out.Policies) != 1 {
			t.Fatalf("policies %v, want the one rate-limit policy", out.Policies)
		}
		pol := out.Policies[0]
		if pol["kind"] != job.PolicyRateLimit || pol["trigger"] != string(errs.RateLimited) || pol["action"] != "Got it" ||
			pol["cooldown_ms"] != "2000" || pol["tab"] != tab.ID() || pol["retry_of"] == "" {
			t.Fatalf("policy %v: want rate_limit answered with \"Got it\", a 2000 ms cooldown, on tab %s, linked to the first send", pol, tab.ID())
		}
		if out.Routing.ControlledTabID != tab.ID() || out.Routing.TabWasCreated {
			t.Fatalf("routing %+v, want the pinned tab", out.Routing)
		}
		if !strings.Contains(strings.Join(out.Warnings, "\n"), "too many requests") {
			t.Fatalf("warnings %q do not mention the rate limit", out.Warnings)
		}
		t.Logf("rate limit once: ferry ask took %s (cooldown %s)", r.took, policyCooldown)
	})

	t.Run("a rate limit that persists exits rate_limited after exactly one retry", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := p.tab(t)
		prompt := "policy: is the ferry still rate limited?"
		r, out := p.ask(t, tab, prompt)
		if want := errs.ExitCode(errs.New(errs.RateLimited, "")); r.code != want {
			t.Fatalf("exit %d, want %d (rate_limited)\nstdout %s\nstderr %s", r.code, want, r.stdout, r.stderr)
		}
		if out.Error == nil || out.Error.Code != errs.RateLimited || out.Error.Evidence["retried"] != "once" || out.Error.RetryHint == "" {
			t.Fatalf("error %+v: want rate_limited saying the one retry was spent and what to do", out.Error)
		}
		if !strings.Contains(out.Error.Message, policyCooldown.String()) {
			t.Fatalf("the message %q does not name the %s cooldown that was waited", out.Error.Message, policyCooldown)
		}
		subs := p.subs(prompt)
		if len(subs) != 2 || !subs[0].Refused || !subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want exactly 2 refused submissions (one retry)", subs)
		}
		if gap := subs[1].At.Sub(subs[0].At); gap < policyCooldown {
			t.Fatalf("the retry came %s after the refusal, before the %s cooldown ended", gap, policyCooldown)
		}
	})

	t.Run("a conversation too long starts a new chat and resubmits once with the answer recorded", func(t *testing.T) {
		srv.Reset()
		tab := p.tab(t)
		r, first := p.ask(t, tab, "policy: the first turn of a long crossing")
		if r.code != 0 || first.ConversationID == "" {
			t.Fatalf("first turn: exit %d, conversation %q\n%s", r.code, first.ConversationID, r.stderr)
		}
		// From now on this conversation is at its maximum length.
		srv.SetConversationScenario(sim.ChatGPT, first.ConversationID, sim.Scenario{Name: sim.ScenarioConversationTooLong})
		prompt := "policy: one crossing too many"
		r, out := p.ask(t, tab, prompt)
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if out.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("answer %q, want the simulator's answer to the prompt", out.Answer)
		}
		subs := p.subs(prompt)
		if len(subs) != 2 || subs[0].ConversationID != first.ConversationID || subs[0].Scenario != sim.ScenarioConversationTooLong ||
			subs[1].ConversationID == first.ConversationID {
			t.Fatalf("the simulator saw %+v, want one send to the full conversation %s and one to a new one", subs, first.ConversationID)
		}
		if out.ConversationID != subs[1].ConversationID {
			t.Fatalf("the result names conversation %q, want the new one %s", out.ConversationID, subs[1].ConversationID)
		}
		if len(out.Policies) != 1 {
			t.Fatalf("policies %v, want the one rollover", out.Policies)
		}
		pol := out.Policies[0]
		if pol["kind"] != job.PolicyRollover || pol["trigger"] != string(errs.ConversationTooLong) || pol["action"] != "Start new chat" ||
			!strings.Contains(pol["previous_conversation"], first.ConversationID) || pol["new_conversation_id"] != subs[1].ConversationID ||
			pol["new_chat"] != "same_tab" || pol["retry_of"] == "" {
			t.Fatalf("policy %v does not record the rollover from %s to %s in the same tab", pol, first.ConversationID, subs[1].ConversationID)
		}
		if out.Routing.ControlledTabID != tab.ID() {
			t.Fatalf("routing %+v, want the pinned tab", out.Routing)
		}
		if !strings.Contains(strings.Join(out.Warnings, "\n"), "maximum length") {
			t.Fatalf("warnings %q do not mention the rollover", out.Warnings)
		}
	})

	t.Run("a cooldown out of bounds is refused before the browser is touched", func(t *testing.T) {
		for _, d := range []string{"500ms", "2h"} {
			r := ferry(t, nil, "ask", "--site", "chatgpt", "--data-dir", p.data, "--cooldown", d, "hello")
			if r.code != 2 || !strings.Contains(r.stderr, "--cooldown") {
				t.Fatalf("--cooldown %s: exit %d, stderr %q; want 2 naming --cooldown", d, r.code, r.stderr)
			}
		}
	})
}

// TestAskKilledDuringTheRateLimitCooldownIsReattached: a ferry ask that
// is SIGKILLed while it waits out the rate-limit cooldown leaves its run at
// submitting with the retry journaled; ferry reattach waits out the rest of
// the cooldown and sends the one retry: never a third submission.
func TestAskKilledDuringTheRateLimitCooldownIsReattached(t *testing.T) {
	t.Parallel()
	p := newPolicyHarness(t)
	srv := p.h.Server
	const cooldown = 4 * time.Second

	// killInCooldown starts ferry ask on dataDir, kills it once the site has
	// refused the prompt and the retry is journaled, and returns the run's
	// record. Each subtest has a data dir of its own: the journal it waits
	// on then holds no other run's retry.
	killInCooldown := func(t *testing.T, tab *browser.Page, dataDir, prompt string) job.Session {
		t.Helper()
		d := "--data-dir=" + dataDir
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cmd := exec.CommandContext(ctx, binary, "ask", "--tab", tab.ID(), "--browser-url", p.url, d, "--timeout", "45s",
			"--cooldown", cooldown.String(), "--prompt", prompt)
		cmd.Env = hermeticEnv(t)
		var errb bytes.Buffer
		cmd.Stderr = &errb
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		var refusedAt time.Time
		for refusedAt.IsZero() {
			for _, s := range p.subs(prompt) {
				if s.Refused {
					refusedAt = s.At
				}
			}
			if ctx.Err() != nil {
				_ = cmd.Process.Kill()
				t.Fatalf("the site never refused the prompt: %s", errb.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
		// Ferry answers the modal and journals the retry, then waits out the
		// cooldown: kill it once the retry is journaled.
		journaled(t, ctx, dataDir, `"retry_of":"`)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		_ = cmd.Wait()
		if n := len(p.subs(prompt)); n != 1 {
			t.Fatalf("%d submissions before the kill, want the 1 refused", n)
		}
		r := ferry(t, nil, "sessions", "list", "--json", "--query", prompt, d)
		var list struct {
			Sessions []job.Session `json:"sessions"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil || len(list.Sessions) != 1 {
			t.Fatalf("sessions list: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		r = ferry(t, nil, "sessions", "show", "--json", list.Sessions[0].ID, d)
		var shown struct {
			Session job.Session `json:"session"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
			t.Fatalf("sessions show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
		}
		s := shown.Session
		if fp := s.Fingerprint; s.State != job.StateSubmitting || fp == nil || fp.RetryOf == "" || fp.Reason != job.PolicyRateLimit || fp.Confirmed ||
			fp.NotBefore.Before(refusedAt.Add(cooldown-time.Second)) {
			t.Fatalf("killed in the cooldown, the record is %s with fingerprint %+v; want submitting with the unsent rate-limit retry", s.State, fp)
		}
		return s
	}

	t.Run("reattach waits out the rest of the cooldown, sends the one retry and prints the answer", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := p.tab(t)
		prompt := "policy: a crossing interrupted in the cooldown"
		dataDir := t.TempDir()
		d := "--data-dir=" + dataDir
		s := killInCooldown(t, tab, dataDir, prompt)
		// The site's lock has ended by the end of the cooldown.
		srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		r := ferry(t, nil, "reattach", "--session", s.ID, "--browser-url", p.url, d, "--timeout", "45s")
		if r.code != 0 {
			t.Fatalf("reattach: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("reattach printed %q, want the answer to the prompt", r.stdout)
		}
		subs := p.subs(prompt)
		if len(subs) != 2 || !subs[0].Refused || subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want 2 submissions: refused, then the one retry answered", subs)
		}
		if subs[1].At.Before(s.Fingerprint.NotBefore) {
			t.Fatalf("the retry went at %s, before the cooldown's end %s", subs[1].At, s.Fingerprint.NotBefore)
		}
		t.Logf("reattach took %s: %s", r.took, strings.TrimSpace(r.stderr))
	})

	t.Run("reattach of a rate limit that persists ends rate_limited without a third send", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := p.tab(t)
		prompt := "policy: a crossing still locked after the interruption"
		dataDir := t.TempDir()
		d := "--data-dir=" + dataDir
		s := killInCooldown(t, tab, dataDir, prompt)
		r := ferry(t, nil, "reattach", "--session", s.ID, "--browser-url", p.url, d, "--timeout", "45s", "--json")
		if want := errs.ExitCode(errs.New(errs.RateLimited, "")); r.code != want {
			t.Fatalf("reattach: exit %d, want %d (rate_limited)\nstdout %s\nstderr %s", r.code, want, r.stdout, r.stderr)
		}
		var out struct {
			Error errs.Envelope `json:"error"`
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Error.Code != errs.RateLimited || out.Error.Evidence["retried"] != "once" {
			t.Fatalf("stdout %s (%v): want rate_limited saying the one retry was spent", r.stdout, err)
		}
		if !strings.Contains(out.Error.Message, cooldown.String()) {
			t.Fatalf("the message %q does not name the %s cooldown that was waited", out.Error.Message, cooldown)
		}
		subs := p.subs(prompt)
		if len(subs) != 2 || !subs[0].Refused || !subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want exactly 2 refused submissions", subs)
		}
		shown := ferry(t, nil, "sessions", "show", "--json", s.ID, d)
		var rec struct {
			Session job.Session `json:"session"`
		}
		if json.Unmarshal([]byte(shown.stdout), &rec) != nil || rec.Session.State != job.StateFailed {
			t.Fatalf("after reattach the run is %s, want failed\n%s", rec.Session.State, shown.stdout)
		}
	})
}
