package kimi_test

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/kimi"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return kimi.New(env) }

func TestConformance(t *testing.T) {
	providertest.Run(t, kimi.ID, factory, providertest.Config{})
}

// Both stream addresses are Kimi's: the newest capture posts to
// kimi.chat.v1 (the simulator's default), older pages to
// kimi.gateway.chat.v1. Either way the stream completes the turn, not the
// DOM's quiet window.
func TestBothStreamAddressesAreCaptured(t *testing.T) {
	for _, scenario := range []string{"", sim.ScenarioLegacyStream} {
		name := "kimi.chat.v1"
		if scenario != "" {
			name = "kimi.gateway.chat.v1"
		}
		t.Run("the answer on "+name+" is read from the stream", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
			defer cancel()
			tab := providertest.Open(t, ctx, kimi.ID, factory, providertest.Setup{Scenario: scenario})
			res, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Which address?"})
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if res.Transport.Source != "stream" || res.Answer != providertest.NormalAnswer("Which address?") {
				t.Fatalf("transport %+v, answer %q: want the stream to complete the turn", res.Transport, res.Answer)
			}
			if n := tab.H.Server.SubmissionCount(kimi.ID); n != 1 {
				t.Fatalf("%d submissions, want 1", n)
			}
		})
	}
}

// Logged out, Kimi opens a login dialog on send and sends nothing. Even
// when the page's logged-out marker is not recognised (here overridden
// away), that dialog is login_required, not something covering the send
// control.
func TestTheLoginDialogOnSendIsALoginWall(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	blind := site.Override{ID: kimi.ID, Selectors: map[site.Role][]string{
		site.RoleLoggedOut: {`.no-such-marker`}, site.RoleLoggedIn: {`.current-model`}}}
	tab := providertest.Open(t, ctx, kimi.ID, factory, providertest.Setup{Scenario: sim.ScenarioLoggedOut, Overrides: []site.Override{blind}})
	_, err := tab.Ask(t, ctx, providertest.Request{Prompt: "hello"})
	if got := errs.CodeOf(err); got != errs.LoginRequired {
		t.Fatalf("got %s (%v), want login_required", got, err)
	}
	if n := tab.H.Server.SubmissionCount(kimi.ID); n != 0 {
		t.Fatalf("%d submissions while logged out, want 0", n)
	}
}
