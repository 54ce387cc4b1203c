package core

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/ownerbrowser"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAnAgentSeesEachSitesReadinessButNotTheUsersTabs: the tab states
// tell an agent whether the user is logged in on a site (what the MCP
// sites tool shows), never which of the user's tabs or conversations they
// are; the owner sees the tabs.
func TestAnAgentSeesEachSitesReadinessButNotTheUsersTabs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	srv := sim.New()
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ob := ownerbrowser.New(func() config.BrowserSettings {
		return config.BrowserSettings{Binary: providertest.ChromiumBin, Headless: true, ExtraArgs: srv.ChromiumFlags()}
	}, t.TempDir(), nil)
	defer ob.Close()
	s, c := openTestService(t, ctx, OwnerOptions{OwnerBrowser: ob})
	b, err := ob.Get(ctx)
	if err != nil {
		t.Fatal(err)
	}
	tab, err := b.OpenTab(ctx, "https://chatgpt.com/c/tax-questions-1")
	if err != nil {
		t.Fatal(err)
	}
	agent := pairTestClient(t, ctx, c, "c_tabstates01", false)
	stateOf := func(caller service.Caller) service.TabState {
		t.Helper()
		tabs, err := s.TabStates(ctx, caller, service.TabStatesRequest{})
		if err != nil {
			t.Fatal(err)
		}
		for _, ts := range tabs {
			if ts.Site == "chatgpt" {
				return ts
			}
		}
		t.Fatalf("no chatgpt tab among %+v", tabs)
		return service.TabState{}
	}
	mine := stateOf(service.Owner(service.FaceDesktop))
	if mine.TargetID != tab.ID() || mine.URL == "" || mine.State == "" {
		t.Fatalf("the owner's view of the tab: %+v", mine)
	}
	theirs := stateOf(agent)
	if theirs.State != mine.State || theirs.Site != "chatgpt" {
		t.Fatalf("the agent's view lacks the site's readiness: %+v, the owner's %+v", theirs, mine)
	}
	if theirs.TargetID != "" || theirs.URL != "" || theirs.Title != "" || theirs.Conversation != "" {
		t.Fatalf("the agent saw the user's tab: %+v", theirs)
	}
}
