package job

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// policyCooldown is the rate-limit cooldown of these tests; the simulator's
// lock (1 s) ends before it, as a real site's lock ends before 300 s.
const policyCooldown = 2 * time.Second

// policyRun creates and runs one session of prompt in tab with the
// policies' runner; onState sees every state event.
func policyRun(t *testing.T, ctx context.Context, b *browser.Browser, tab *browser.Page, prompt string, onState func(Event)) (*Session, []Entry, error) {
	t.Helper()
	repo, _ := openRepo(t, t.TempDir())
	r := NewRunner(repo, WithRateLimitCooldown(policyCooldown))
	if onState != nil {
		defer r.Subscribe(onState)()
	}
	s, err := r.Create(ctx, Spec{Site: "chatgpt", Prompt: prompt, TargetID: tab.ID(), Deadline: time.Now().Add(60 * time.Second)})
	if err != nil {
		t.Fatal(err)
	}
	a, _, err := adapterFor(ctx, b, tab.ID())
	if err != nil {
		t.Fatal(err)
	}
	out, runErr := r.Run(ctx, s.ID, a)
	j, err := repo.Journal(ctx, s.ID)
	if err != nil {
		t.Fatal(err)
	}
	return out, j, runErr
}

// submittings returns the journal's submitting entries, in order.
func submittings(j []Entry) []Entry {
	var out []Entry
	for _, e := range j {
		if e.State == StateSubmitting {
			out = append(out, e)
		}
	}
	return out
}

// promptSubs returns the simulator's submissions of exactly prompt.
func promptSubs(srv *sim.Server, prompt string) []sim.Submission {
	var out []sim.Submission
	for _, sub := range srv.Submissions(sim.ChatGPT) {
		if strings.TrimSpace(sub.Prompt) == prompt {
			out = append(out, sub)
		}
	}
	return out
}

func policyReceipt(s *Session, kind string) map[string]string {
	for _, r := range s.Receipts {
		if r.Layer == "policy" && r.Data["kind"] == kind {
			return r.Data
		}
	}
	return nil
}

// checkRetryJournal asserts that the journal holds exactly two
// submissions, the second an intentional retry linked to the first.
func checkRetryJournal(t *testing.T, j []Entry, reason string) {
	t.Helper()
	subs := submittings(j)
	if len(subs) != 2 {
		t.Fatalf("the journal holds %d submitting entries, want 2: %+v", len(subs), j)
	}
	first, second := subs[0].Fingerprint, subs[1].Fingerprint
	if first == nil || second == nil {
		t.Fatalf("a submitting entry carries no fingerprint: %+v", subs)
	}
	if first.RetryOf != "" {
		t.Fatalf("the first submission is marked as a retry: %+v", first)
	}
	if second.RetryOf != first.Hash || second.Reason != reason || second.Hash == first.Hash {
		t.Fatalf("the second submission %+v is not a %s retry linked to %s", second, reason, first.Hash)
	}
}

func TestInterstitialPoliciesRetryOnceAgainstTheSimulator(t *testing.T) {
	if _, err := os.Stat("/usr/bin/chromium"); err != nil {
		t.Fatalf("chromium is required (apt-get install chromium): %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 120*time.Second)
	defer cancel()
	srv := sim.New(sim.WithPace(40, 5*time.Millisecond), sim.WithRateLimitLock(time.Second))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	b, err := browser.Launch(ctx, t.TempDir(), launch.Headless(), launch.WithBinary("/usr/bin/chromium"),
		launch.WithArgs(append(srv.ChromiumFlags(), "--disable-quic", "--no-first-run", "--disable-background-networking",
			"--disable-component-update", "--disable-sync")...))
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close(context.Background())
	newTab := func(t *testing.T) *browser.Page {
		tab, err := b.OpenTab(ctx, "https://chatgpt.com/")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = tab.Close(context.Background()) })
		return tab
	}
	rateLimited := sim.Scenario{Name: sim.ScenarioRateLimit, Params: map[string]string{"lock": "1s"}}

	// The cases share the simulator's per-site lock: they run in turn.
	t.Run("a rate limit is waited out and the one retry on the same tab answers", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := newTab(t)
		prompt := "policy check: rate limit then success"
		retries := 0
		s, j, err := policyRun(t, ctx, b, tab, prompt, func(ev Event) {
			if ev.Kind == EventState && ev.State == StateSubmitting {
				retries++
				if retries == 2 {
					// The site's lock has ended by the end of the cooldown;
					// from the retry on it answers.
					srv.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
				}
			}
		})
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		if s.State != StateDone || !strings.Contains(s.Answer, "policy check") {
			t.Fatalf("state %s, answer %q", s.State, s.Answer)
		}
		subs := promptSubs(srv, prompt)
		if len(subs) != 2 || !subs[0].Refused || subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want exactly 2 submissions, the first refused and the second answered", subs)
		}
		if gap := subs[1].At.Sub(subs[0].At); gap < policyCooldown {
			t.Fatalf("the retry came %s after the refusal, before the %s cooldown ended", gap, policyCooldown)
		}
		checkRetryJournal(t, j, PolicyRateLimit)
		if s.Fingerprint.RetryOf == "" || !s.Fingerprint.Confirmed {
			t.Fatalf("the final fingerprint %+v is not the confirmed retry", s.Fingerprint)
		}
		rc := policyReceipt(s, PolicyRateLimit)
		if rc == nil || rc["action"] != "Got it" || rc["cooldown_ms"] != "2000" || rc["tab"] != tab.ID() {
			t.Fatalf("policy receipt %v: want the \"Got it\" click, a 2000 ms cooldown and the same tab", rc)
		}
		if !strings.Contains(strings.Join(s.Warnings, "\n"), "too many requests") {
			t.Fatalf("no rate-limit warning in %q", s.Warnings)
		}
	})

	t.Run("a rate limit that persists after the one retry fails as rate_limited", func(t *testing.T) {
		srv.Reset()
		srv.SetScenario(sim.ChatGPT, rateLimited)
		tab := newTab(t)
		prompt := "policy check: rate limit persists"
		s, j, err := policyRun(t, ctx, b, tab, prompt, nil)
		if !errs.Has(err, errs.RateLimited) {
			t.Fatalf("run error %v, want rate_limited", err)
		}
		env := errs.From(err)
		if env.Evidence["retried"] != "once" || env.RetryHint == "" {
			t.Fatalf("the envelope %+v does not say the retry was spent or what to do", env)
		}
		if s.State != StateFailed {
			t.Fatalf("state %s, want failed", s.State)
		}
		subs := promptSubs(srv, prompt)
		if len(subs) != 2 || !subs[0].Refused || !subs[1].Refused {
			t.Fatalf("the simulator saw %+v, want exactly 2 refused submissions (one retry)", subs)
		}
		checkRetryJournal(t, j, PolicyRateLimit)
	})

	t.Run("a conversation too long rolls over to a new chat and the one resubmit answers", func(t *testing.T) {
		srv.Reset()
		tab := newTab(t)
		first, _, err := policyRun(t, ctx, b, tab, "policy check: the first turn of a long conversation", nil)
		if err != nil || first.ConversationID == "" {
			t.Fatalf("first turn: %v (conversation %q)", err, first.ConversationID)
		}
		// From now on this conversation is at its maximum length.
		srv.SetConversationScenario(sim.ChatGPT, first.ConversationID, sim.Scenario{Name: sim.ScenarioConversationTooLong})
		prompt := "policy check: one turn too many"
		s, j, err := policyRun(t, ctx, b, tab, prompt, nil)
		if err != nil {
			t.Fatalf("run: %v", err)
		}
		if s.State != StateDone || !strings.Contains(s.Answer, "one turn too many") {
			t.Fatalf("state %s, answer %q", s.State, s.Answer)
		}
		subs := promptSubs(srv, prompt)
		if len(subs) != 2 || subs[0].ConversationID != first.ConversationID || subs[1].ConversationID == first.ConversationID ||
			subs[0].Scenario != sim.ScenarioConversationTooLong {
			t.Fatalf("the simulator saw %+v, want one send to the full conversation %s and one to a new one", subs, first.ConversationID)
		}
		if s.ConversationID != subs[1].ConversationID || !strings.Contains(s.ConversationURL, subs[1].ConversationID) {
			t.Fatalf("the record names conversation %q (%s), want the new one %s", s.ConversationID, s.ConversationURL, subs[1].ConversationID)
		}
		checkRetryJournal(t, j, PolicyRollover)
		rc := policyReceipt(s, PolicyRollover)
		if rc == nil || !strings.Contains(rc["previous_conversation"], first.ConversationID) ||
			rc["new_conversation_id"] != subs[1].ConversationID || rc["new_chat"] != "same_tab" {
			t.Fatalf("policy receipt %v does not record the rollover from %s to %s", rc, first.ConversationID, subs[1].ConversationID)
		}
		if s.TargetID != tab.ID() {
			t.Fatalf("the run moved to tab %s", s.TargetID)
		}
		if !strings.Contains(strings.Join(s.Warnings, "\n"), "maximum length") {
			t.Fatalf("no rollover warning in %q", s.Warnings)
		}
	})
}
