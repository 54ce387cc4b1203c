package core

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestASendWithoutATabGoesWhereTheUserWould (issue 26, point 2): after
// "New chat" opened a second ChatGPT tab, the next plain send goes to the
// tab Ferry last used, not "several tabs are open"; with a run on screen in
// Compose it goes to the tab of that run's conversation; a Cloudflare
// check's Retry takes the tab the check stopped, not a third one; an agent
// is never routed by the owner's preference; and tabs Ferry cannot tell
// apart still fail closed, listed by their conversations' titles, not ids.
func TestASendWithoutATabGoesWhereTheUserWould(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	svc := o.svc
	desk, cli := service.Owner(service.FaceDesktop), service.Owner(service.FaceCLI)

	// run submits req for c and waits for its end.
	run := func(t *testing.T, c service.Caller, req service.JobRequest) service.Job {
		t.Helper()
		req.Kind = service.KindAsk
		j, err := svc.SubmitJob(ctx, c, req)
		if err != nil {
			t.Fatal(err)
		}
		done, err := svc.WatchJob(ctx, c, service.WatchRequest{ID: j.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return done
	}
	// answered is the run of a job that must have ended done.
	answered := func(t *testing.T, j service.Job) *service.Run {
		t.Helper()
		if j.State != string(job.StateDone) || j.Detail == nil || j.Detail.Run == nil || j.Detail.Run.Routing == nil {
			t.Fatalf("job %s ended %s: %+v", j.ID, j.State, j.Error)
		}
		return j.Detail.Run
	}
	chatTabs := func(t *testing.T) []browser.Target {
		t.Helper()
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var out []browser.Target
		for _, tg := range targets {
			if strings.HasPrefix(tg.URL, "https://chatgpt.com/") {
				out = append(out, tg)
			}
		}
		return out
	}

	first := answered(t, run(t, desk, service.JobRequest{Site: "chatgpt", Prompt: "How do chain ferries cross a river?"}))
	second := answered(t, run(t, desk, service.JobRequest{Site: "chatgpt", NewChat: true, Prompt: "Which ferries run at night?"}))
	if second.Routing.ControlledTabID == first.Routing.ControlledTabID || !second.Routing.TabWasCreated {
		t.Fatalf("New chat did not open a tab of its own: %+v after %+v", second.Routing, first.Routing)
	}

	t.Run("after New chat, a plain send goes to the tab Ferry last used", func(t *testing.T) {
		got := answered(t, run(t, cli, service.JobRequest{Site: "chatgpt", Prompt: "And on Sundays?"}))
		if got.Routing.ControlledTabID != second.Routing.ControlledTabID || got.ConversationURL != second.ConversationURL {
			t.Errorf("the plain send ran in tab %s on %s, want the new chat's tab %s on %s",
				got.Routing.ControlledTabID, got.ConversationURL, second.Routing.ControlledTabID, second.ConversationURL)
		}
	})

	t.Run("with a run on screen in Compose, a plain send goes to the tab of its conversation", func(t *testing.T) {
		got := answered(t, run(t, desk, service.JobRequest{Site: "chatgpt", ShownRun: first.ID, Prompt: "And in winter?"}))
		if got.Routing.ControlledTabID != first.Routing.ControlledTabID || got.ConversationURL != first.ConversationURL {
			t.Errorf("the send ran in tab %s on %s, want the shown run's tab %s on %s",
				got.Routing.ControlledTabID, got.ConversationURL, first.Routing.ControlledTabID, first.ConversationURL)
		}
	})

	t.Run("an agent's ask is not routed by a run of the owner it names as shown", func(t *testing.T) {
		info, _, err := o.register(ctx, "agent")
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.autoApprove(ctx, info.ID, true); err != nil {
			t.Fatal(err)
		}
		got := answered(t, run(t, service.Agent(info.ID), service.JobRequest{Site: "chatgpt", ShownRun: first.ID, Prompt: "Mine?"}))
		if id := got.Routing.ControlledTabID; id == first.Routing.ControlledTabID || id == second.Routing.ControlledTabID || !got.Routing.TabWasCreated {
			t.Errorf("the agent's ask ran in %+v, want a tab of its own", got.Routing)
		}
	})

	t.Run("Retry after a Cloudflare check takes the tab the check stopped, not another", func(t *testing.T) {
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCloudflare})
		defer h.Server.Reset()
		blocked := run(t, desk, service.JobRequest{Site: "chatgpt", NewChat: true, Prompt: "Is the harbour ferry running?"})
		if blocked.Error == nil || blocked.Error.Code != errs.CloudflareChallenge || blocked.Detail.Run == nil {
			t.Fatalf("the run behind the check: %s %+v", blocked.State, blocked.Error)
		}
		tab := blocked.Detail.Run.TargetID
		// The user solves the check in that tab.
		p, err := h.Browser.Page(ctx, tab)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(ctx, `() => fetch('/cdn-cgi/challenge-platform/solve', {method: 'POST', credentials: 'include'}).then(r => r.ok)`); err != nil {
			t.Fatal(err)
		}
		before := len(chatTabs(t))
		j, err := svc.RetryJob(ctx, desk, service.JobRef{ID: blocked.ID})
		if err != nil {
			t.Fatal(err)
		}
		done, err := svc.WatchJob(ctx, desk, service.WatchRequest{ID: j.ID}, nil)
		if err != nil {
			t.Fatal(err)
		}
		got := answered(t, done)
		if got.Routing.ControlledTabID != tab || got.Routing.TabWasCreated {
			t.Errorf("the retry ran in %+v, want the checked tab %s", got.Routing, tab)
		}
		if n := len(chatTabs(t)); n != before {
			t.Errorf("%d ChatGPT tabs after the retry, %d before", n, before)
		}
	})

	t.Run("tabs Ferry cannot tell apart still ask, named by their conversations' titles", func(t *testing.T) {
		// Ferry's tabs close; the user opens the two conversations in tabs
		// of their own.
		for _, tg := range chatTabs(t) {
			p, err := h.Browser.Page(ctx, tg.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Close(ctx); err != nil {
				t.Fatal(err)
			}
		}
		for _, conv := range []string{first.ConversationURL, second.ConversationURL} {
			p, err := h.Browser.OpenTab(ctx, "about:blank")
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Navigate(ctx, conv); err != nil {
				t.Fatal(err)
			}
		}
		j := run(t, desk, service.JobRequest{Site: "chatgpt", Prompt: "Which tab?"})
		if j.Error == nil || j.Error.Code != errs.TabAmbiguous {
			t.Fatalf("the send ended %s with %+v, want tab_ambiguous", j.State, j.Error)
		}
		var names []string
		for _, c := range j.Error.Tabs {
			names = append(names, c.Title)
			for _, r := range []*service.Run{first, second} {
				if strings.Contains(c.Title, r.ConversationID) {
					t.Errorf("tab %s is named by its conversation's id: %q", c.TargetID, c.Title)
				}
			}
		}
		want := []string{"How do chain ferries cross a river?", "Which ferries run at night?"}
		if len(names) != 2 || !(names[0] == want[0] && names[1] == want[1] || names[0] == want[1] && names[1] == want[0]) {
			t.Errorf("the tabs are named %q, want %q", names, want)
		}
	})
}
