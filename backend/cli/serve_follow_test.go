package cli

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

var convRe = regexp.MustCompile(`/c/([A-Za-z0-9][A-Za-z0-9_-]*)`)

// TestServeFollowsRunsInTheBrowserLikeEmbedded runs the commands that
// check runs in a browser (poll, reattach, watch, sessions doctor, tabs)
// embedded on one data directory and through `ferry serve` on a twin of it
// (seeded alike, so that the doctor's changes happen on both), with the
// simulator's Chromium as --browser-url, and wants the same output and
// exit codes. Then it checks what only an owner can do: list and open tabs
// of the owner's browser, and follow a run the owner is running with
// ferry watch, its partial text streamed over the event stream.
func TestServeFollowsRunsInTheBrowserLikeEmbedded(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(sim.WithPace(4, 30*time.Millisecond), sim.WithRateLimitLock(2*time.Second))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	base := time.Date(2026, 3, 2, 9, 0, 0, 0, time.UTC)
	seed := func(dd string) {
		seedSessions(t, dd,
			job.Session{ID: "run-done", Site: "chatgpt", Prompt: "what is a ferry", Answer: "a boat", State: job.StateDone, Created: base},
			job.Session{ID: "run-gone", Site: "chatgpt", Prompt: "a run whose tab was closed", State: job.StateStreaming, TargetID: "0123456789ABCDEF0123456789ABCDEF", Created: base.Add(time.Hour),
				ConversationURL: "https://chatgpt.com/c/gone-conv"},
		)
	}
	ddE, ddH := t.TempDir(), t.TempDir()
	seed(ddE)
	seed(ddH)
	cases := []struct {
		name string
		args []string
	}{
		{"poll of a run whose tab is gone is stale", []string{"poll", "--session", "run-gone", "--browser-url", url}},
		{"reattach of a run whose tab is gone is stale and sends nothing", []string{"reattach", "--session", "run-gone", "--browser-url", url}},
		{"watch --json of a run whose tab is gone prints the stale error", []string{"watch", "--json", "--session", "run-gone", "--browser-url", url}},
		{"poll of a finished run needs no tab", []string{"poll", "--session", "run-done", "--browser-url", url}},
		{"sessions doctor marks the run whose tab is gone stale", []string{"sessions", "doctor", "--browser-url", url}},
		{"sessions doctor --json afterwards lists it stale", []string{"sessions", "doctor", "--json", "--browser-url", url}},
		{"tabs --json of a named browser", []string{"tabs", "--json", "--browser-url", url}},
	}
	embedded := make([]result, len(cases))
	for i, c := range cases {
		embedded[i] = ferry(t, nil, append(c.args, "--data-dir="+ddE)...)
	}
	if embedded[0].code != exitOf(errs.SessionStale) || !strings.Contains(embedded[4].stdout, "stale") {
		t.Fatalf("embedded runs are not what the table assumes: %+v / %+v", embedded[0], embedded[4])
	}
	srv := startServe(t, ddH, "--browser-url", url)
	d := "--data-dir=" + ddH
	for i, c := range cases {
		t.Run(c.name+" the same through the hub", func(t *testing.T) {
			r := ferry(t, nil, append(c.args, d)...)
			e := embedded[i]
			if r.code != e.code || r.stdout != e.stdout || r.stderr != e.stderr {
				t.Fatalf("through the hub: exit %d\n%s\n%s\nembedded: exit %d\n%s\n%s", r.code, r.stdout, r.stderr, e.code, e.stdout, e.stderr)
			}
		})
	}

	t.Run("tabs and open without --browser-url use the owner's browser", func(t *testing.T) {
		r := ferry(t, nil, "open", "chatgpt", "--json", d)
		var opened openJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &opened) != nil || opened.ID == "" || opened.Site != "chatgpt" {
			t.Fatalf("open through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		viaHub := ferry(t, nil, "tabs", "--json", d)
		named := ferry(t, nil, "tabs", "--json", "--browser-url", url, d)
		if viaHub.code != 0 || viaHub.stdout != named.stdout || !strings.Contains(viaHub.stdout, opened.ID) {
			t.Fatalf("tabs through the hub:\n%s%s\nwith the browser named:\n%s", viaHub.stdout, viaHub.stderr, named.stdout)
		}
	})

	t.Run("watch follows a run the owner is running and streams its partial text", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		ep, err := client.Discover(ctx, srv.info.HubFile)
		if err != nil {
			t.Fatal(err)
		}
		owner := client.New(ep)
		prompt := "Tell me slowly about river ferries"
		j, err := owner.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: prompt, NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		var session string
		for session == "" {
			if j, err = owner.GetJob(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
			if j.Detail != nil {
				session = j.Detail.Session
			}
			if jobEnded(j) || ctx.Err() != nil {
				t.Fatalf("the job ended (%s) before it had a session", j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
		// A run the owner runs is followed, never resumed a second time.
		res, err := owner.ReattachSession(ctx, hub.SessionCheck{Session: session})
		if err != nil || res.Started || res.Job.ID != j.ID {
			t.Fatalf("reattach of a running run: %+v %v", res, err)
		}
		r := ferry(t, nil, "watch", "--session", session, d)
		answer := providertest.NormalAnswer(prompt)
		if r.code != 0 || r.stdout != answer+"\n" {
			t.Fatalf("watch: exit %d\nstdout %q\nstderr %q", r.code, r.stdout, r.stderr)
		}
		// The partial text came over the event stream while the run went on.
		if !strings.Contains(r.stderr, "[done]") || !strings.Contains(r.stderr, "That is the whole answer.") {
			t.Fatalf("watch streamed nothing: stderr %q", r.stderr)
		}
		end, err := owner.GetJob(ctx, j.ID)
		if err != nil || end.State != string(job.StateDone) {
			t.Fatalf("the watched job: %+v %v", end.State, err)
		}
	})

	t.Run("reattach through the hub collects what a cancelled run's site kept without sending it again", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
		defer cancel()
		ep, err := client.Discover(ctx, srv.info.HubFile)
		if err != nil {
			t.Fatal(err)
		}
		owner := client.New(ep)
		prompt := "Cut me off mid answer please"
		j, err := owner.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Site: "chatgpt", Prompt: prompt, NewChat: true})
		if err != nil {
			t.Fatal(err)
		}
		var run *job.Session
		for run == nil || run.State != job.StateStreaming {
			if j, err = owner.GetJob(ctx, j.ID); err != nil {
				t.Fatal(err)
			}
			if j.Detail != nil {
				run = j.Detail.Run
			}
			if jobEnded(j) || ctx.Err() != nil {
				t.Fatalf("the job ended (%s) before it streamed", j.State)
			}
			time.Sleep(100 * time.Millisecond)
		}
		if _, err := owner.CancelJob(ctx, j.ID); err != nil {
			t.Fatal(err)
		}
		sent := func() int {
			n := 0
			for _, sub := range h.Server.Submissions("chatgpt") {
				if strings.Contains(sub.Prompt, prompt) {
					n++
				}
			}
			return n
		}
		if n := sent(); n != 1 {
			t.Fatalf("the prompt reached the site %d times before reattach", n)
		}
		r := ferry(t, nil, "reattach", "--json", "--session", run.ID, d)
		var out struct {
			Session *job.Session `json:"session"`
			Finding *job.Finding `json:"finding"`
		}
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Session == nil || out.Finding == nil {
			t.Fatalf("reattach through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		// Cancel stopped the site, so what is collected is the answer as the
		// site kept it: a beginning of the whole answer, never nothing.
		whole := providertest.NormalAnswer(prompt)
		if out.Session.State != job.StateDone || out.Session.Answer == "" || !strings.HasPrefix(whole, out.Session.Answer) || out.Finding.Action != "collect" {
			t.Fatalf("reattach: state %s action %q answer %q, want a beginning of %q", out.Session.State, out.Finding.Action, out.Session.Answer, whole)
		}
		if n := sent(); n != 1 {
			t.Fatalf("reattach sent the prompt again: %d submissions", n)
		}
	})

	var conv []string
	var askTab string
	t.Run("ask --new-chat through the hub answers in a tab it opened", func(t *testing.T) {
		prompt := "A new chat through the hub"
		r := ferry(t, nil, "ask", "--site", "chatgpt", "--new-chat", "--json", "--timeout", "60s", "--prompt", prompt, d)
		var out askJSON
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &out) != nil || out.Answer != providertest.NormalAnswer(prompt) || !out.Routing.TabWasCreated {
			t.Fatalf("ask --new-chat through the hub: exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		conv = convRe.FindStringSubmatch(out.Routing.URL)
		if conv == nil {
			t.Fatalf("the run's tab is not on a conversation: %q", out.Routing.URL)
		}
		askTab = out.Routing.ControlledTabID
	})

	t.Run("retrieve reads the conversation in the owner's browser, not a second one", func(t *testing.T) {
		if conv == nil {
			t.Fatal("needs the conversation of the previous subtest")
		}
		// Through the hub the command attaches to the owner's browser; a
		// launch on the data directory's profile would fail here (no
		// display), and a launched browser would not have the tab.
		viaHub := ferry(t, nil, "retrieve", "--json", "--conv", conv[1], "--out", t.TempDir(), "--timeout", "40s", d)
		named := ferry(t, nil, "retrieve", "--json", "--conv", conv[1], "--out", t.TempDir(), "--timeout", "40s", "--browser-url", url, d)
		var rh, rn RetrieveReceipt
		if json.Unmarshal([]byte(viaHub.stdout), &rh) != nil || json.Unmarshal([]byte(named.stdout), &rn) != nil {
			t.Fatalf("retrieve printed no receipt: %s %s / %s %s", viaHub.stdout, viaHub.stderr, named.stdout, named.stderr)
		}
		if viaHub.code != named.code || viaHub.code != exitOf(errs.ArtifactNotFound) || rh.TabID != askTab || rh.TabWasCreated || rh.TabID != rn.TabID {
			t.Fatalf("through the hub: exit %d tab %s created %v; named browser: exit %d tab %s; the ask's tab %s",
				viaHub.code, rh.TabID, rh.TabWasCreated, named.code, rn.TabID, askTab)
		}
	})
}
