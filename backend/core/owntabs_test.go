package core

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAgentsTabsAndFollowUps: an agent's site-only asks are new chats;
// each takes one of the agent's own free tabs rather than opening one, so
// an agent that asks often keeps one tab per run going on at once, never
// the user's tab and never another agent's. The owner's site-only ask
// finds the user's tab, not the agents'. A follow-up (sessionId) goes on
// in the tab that shows the run's conversation, or in a tab navigated
// back to it, and its approval says whose conversation it continues.
func TestAgentsTabsAndFollowUps(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	o := startOwner(t, ctx, t.TempDir(), OwnerOptions{Browser: h.Browser})
	defer o.stop(t)
	svc := o.svc
	agent := func(name string) service.Caller {
		info, _, err := o.register(ctx, name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := o.autoApprove(ctx, info.ID, true); err != nil {
			t.Fatal(err)
		}
		return service.Agent(info.ID)
	}
	a, b := agent("agent A"), agent("agent B")

	userTab, err := h.Browser.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	userURL := sim.URL(sim.ChatGPT, "/c/tax-questions-1")
	if err := userTab.Navigate(ctx, userURL); err != nil {
		t.Fatal(err)
	}

	ask := func(c service.Caller, prompt string) *service.Run {
		t.Helper()
		j, err := svc.SubmitJob(ctx, c, service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: prompt})
		if err != nil {
			t.Fatal(err)
		}
		done, err := svc.WatchJob(ctx, c, service.WatchRequest{ID: j.ID}, nil)
		if err != nil || done.State != string(job.StateDone) || done.Detail.Run == nil || done.Detail.Run.Routing == nil {
			t.Errorf("job %q: %+v %v", prompt, done, err)
			return nil
		}
		if got := done.Detail.Run.Answer; got != providertest.NormalAnswer(prompt) {
			t.Errorf("job %q answered %q", prompt, got)
		}
		return done.Detail.Run
	}
	first := ask(a, "Agent A's first question")
	second := ask(a, "Agent A's second question")
	if t.Failed() {
		t.FailNow()
	}
	tab := first.Routing.ControlledTabID
	if tab == userTab.ID() || !first.Routing.TabWasCreated {
		t.Fatalf("agent A's first ask did not open a tab of its own: %+v", first.Routing)
	}
	if second.Routing.ControlledTabID != tab || second.Routing.TabWasCreated {
		t.Errorf("agent A's second ask did not take its free tab %s: %+v", tab, second.Routing)
	}
	if second.ConversationID == "" || second.ConversationID == first.ConversationID {
		t.Errorf("agent A's second ask was not a new chat: conversations %q then %q", first.ConversationID, second.ConversationID)
	}

	// Agent B never takes agent A's tab.
	if other := ask(b, "Agent B's question"); other != nil && (other.Routing.ControlledTabID == tab || other.Routing.ControlledTabID == userTab.ID() || !other.Routing.TabWasCreated) {
		t.Errorf("agent B's ask ran in a tab not its own: %+v", other.Routing)
	}

	// Two asks at once: one takes the free tab, the other opens one.
	var wg sync.WaitGroup
	runs := make([]*service.Run, 2)
	for i := range runs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			runs[i] = ask(a, []string{"Agent A's third question", "Agent A's fourth question"}[i])
		}()
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	if runs[0].Routing.ControlledTabID == runs[1].Routing.ControlledTabID {
		t.Errorf("two asks at once ran in one tab: %+v", runs[0].Routing)
	}
	reused := 0
	for _, r := range runs {
		if r.Routing.ControlledTabID == tab && !r.Routing.TabWasCreated {
			reused++
		}
	}
	if reused != 1 {
		t.Errorf("%d of two asks at once took agent A's free tab, want 1: %+v %+v", reused, runs[0].Routing, runs[1].Routing)
	}

	// The user's tab is untouched by the agents.
	if info, err := userTab.Info(ctx); err != nil || info.URL != userURL {
		t.Errorf("the user's tab shows %q (%v), want %q", info.URL, err, userURL)
	}

	// A follow-up of agent A's first run goes back to its conversation,
	// and its approval says so.
	aID := a.Client
	if _, err := o.autoApprove(ctx, aID, false); err != nil {
		t.Fatal(err)
	}
	j, err := svc.SubmitJob(ctx, a, service.JobRequest{Kind: service.KindAsk, SessionID: first.ID[:len(first.ID)-2], Prompt: "And a follow-up?"})
	if err != nil {
		t.Fatal(err)
	}
	aps, err := svc.ListApprovals(ctx, service.Owner(service.FaceCLI), service.ListApprovalsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	var ap *service.Approval
	for i := range aps {
		if aps[i].JobID == j.ID {
			ap = &aps[i]
		}
	}
	if ap == nil || ap.Site != "chatgpt" || !ap.Continues || ap.Existing || !strings.HasPrefix(ap.Where, "its own conversation '") {
		t.Errorf("approval of the follow-up: %+v", ap)
	}
	if _, err := svc.Approve(ctx, service.Owner(service.FaceCLI), service.ApprovalRef{JobID: j.ID}); err != nil {
		t.Fatal(err)
	}
	done, err := svc.WatchJob(ctx, a, service.WatchRequest{ID: j.ID}, nil)
	if err != nil || done.Detail.Run == nil || done.Detail.Run.ConversationURL != first.ConversationURL {
		t.Errorf("the follow-up: %+v %v, want it in %s", done, err, first.ConversationURL)
	}
	// Agent B may not follow up agent A's run, even by a prefix.
	if _, err := svc.SubmitJob(ctx, b, service.JobRequest{Kind: service.KindAsk, SessionID: first.ID[:len(first.ID)-2], Prompt: "Mine now?"}); errs.CodeOf(err) != errs.HubForbidden {
		t.Errorf("agent B following up agent A's run: %v, want hub_forbidden", err)
	}

	// The owner's site-only ask finds the user's tab, not a choice between
	// it and the agents' tabs.
	oj, err := svc.SubmitJob(ctx, service.Owner(service.FaceCLI), service.JobRequest{Kind: service.KindAsk, Site: "chatgpt", Prompt: "The owner's question"})
	if err != nil {
		t.Fatal(err)
	}
	od, err := svc.WatchJob(ctx, service.Owner(service.FaceCLI), service.WatchRequest{ID: oj.ID}, nil)
	if err != nil || od.Detail.Run == nil || od.Detail.Run.Routing == nil || od.Detail.Run.Routing.ControlledTabID != userTab.ID() {
		t.Fatalf("the owner's site-only ask: %+v %v, want it in the user's tab %s", od, err, userTab.ID())
	}
	userURL = od.Detail.Run.ConversationURL
	// The owner's follow-up of that run goes on in the tab that shows it.
	fj, err := svc.SubmitJob(ctx, service.Owner(service.FaceCLI), service.JobRequest{Kind: service.KindAsk, SessionID: od.Detail.Run.ID, Prompt: "The owner's follow-up"})
	if err != nil {
		t.Fatal(err)
	}
	fd, err := svc.WatchJob(ctx, service.Owner(service.FaceCLI), service.WatchRequest{ID: fj.ID}, nil)
	if err != nil || fd.Detail.Run == nil || fd.Detail.Run.Routing.ControlledTabID != userTab.ID() || fd.Detail.Run.ConversationURL != userURL || fd.Detail.Run.Routing.TabWasCreated {
		t.Fatalf("the owner's follow-up: %+v %v, want it in the user's tab %s on %s", fd, err, userTab.ID(), userURL)
	}

	// The user's tab is where the user left it.
	info, err := userTab.Info(ctx)
	if err != nil || info.URL != userURL {
		t.Errorf("the user's tab shows %q (%v), want %q", info.URL, err, userURL)
	}
}
