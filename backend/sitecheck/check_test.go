package sitecheck_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/sitecheck"
)

// checkPage opens path of site id in a fresh browser context of the shared
// harness, with scenario as the site's page scenario, and checks it.
func checkPage(t *testing.T, id, scenario, path string, reg *site.Registry) sitecheck.SiteReport {
	t.Helper()
	h := providertest.Shared(t)
	h.Server.Reset()
	if scenario != "" {
		h.Server.SetScenario(id, sim.Scenario{Name: scenario})
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	bc, err := h.Browser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
		defer stop()
		_ = bc.Dispose(cctx)
	})
	p, err := bc.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, sim.URL(id, path)); err != nil {
		t.Fatal(err)
	}
	s, err := reg.Get(id)
	if err != nil {
		t.Fatal(err)
	}
	return sitecheck.Check(ctx, p, s, reg)
}

func TestEverySimulatedSiteChecksOK(t *testing.T) {
	for _, id := range sim.Sites() {
		t.Run(id+" is ok on its normal page", func(t *testing.T) {
			rep := checkPage(t, id, "", "/", site.Builtin())
			b, _ := json.MarshalIndent(rep, "", "  ")
			if !rep.OK {
				t.Errorf("not ok:\n%s", b)
			}
		})
	}
}

// applyFirst merges the first candidate's override of every missing role
// of rep into reg.
func applyFirst(t *testing.T, reg *site.Registry, rep sitecheck.SiteReport) *site.Registry {
	t.Helper()
	for _, r := range rep.Roles {
		if r.Status != sitecheck.RoleMissing {
			continue
		}
		if len(r.Candidates) == 0 {
			t.Fatalf("%s resolves nowhere and has no candidate", r.Role)
		}
		o, err := site.ParseOverrides([]byte("[" + r.Candidates[0].Override + "]"))
		if err != nil {
			t.Fatalf("the override of %s does not parse: %v\n%s", r.Role, err, r.Candidates[0].Override)
		}
		if reg, err = reg.Merge(o...); err != nil {
			t.Fatalf("the override of %s does not merge: %v", r.Role, err)
		}
	}
	return reg
}

func TestADriftedPageNamesTheRoleAndTheOverrideFixesIt(t *testing.T) {
	for _, id := range sim.Sites() {
		t.Run(id+" reports its drifted roles with an override that makes it ok", func(t *testing.T) {
			reg := site.Builtin()
			rep := checkPage(t, id, sim.ScenarioDriftedDOM, "/", reg)
			if rep.OK {
				t.Fatalf("a drifted page checks ok")
			}
			if n := providertest.Shared(t).Server.SubmissionCount(id); n != 0 {
				t.Fatalf("the check sent %d prompt(s)", n)
			}
			fixed := applyFirst(t, reg, rep)
			again := checkPage(t, id, sim.ScenarioDriftedDOM, "/", fixed)
			if !again.OK {
				b, _ := json.MarshalIndent(again.Problems, "", "  ")
				t.Fatalf("still not ok with the overrides:\n%s", b)
			}
		})
	}
}

func TestALoggedOutPageSaysHowToLogIn(t *testing.T) {
	for _, id := range []string{sim.Claude, sim.ChatGPT} {
		t.Run(id+" is not ok, logged out, with the way to log in", func(t *testing.T) {
			rep := checkPage(t, id, sim.ScenarioLoggedOut, "/", site.Builtin())
			if rep.OK || rep.LoggedIn || !strings.Contains(rep.Login, "log in") || len(rep.Problems) == 0 {
				t.Fatalf("logged-out page reported as %+v", rep)
			}
			for _, r := range rep.Roles {
				if r.Status == sitecheck.RoleMissing {
					t.Errorf("a logged-out page blames the selectors: %s missing", r.Role)
				}
			}
		})
	}
}

func TestAnInterstitialIsReported(t *testing.T) {
	rep := checkPage(t, sim.ChatGPT, sim.ScenarioCloudflare, "/", site.Builtin())
	if rep.OK || rep.Interstitial == nil || rep.Interstitial.Kind != "cloudflare" || !rep.Interstitial.Blocking {
		t.Fatalf("a Cloudflare challenge reported as %+v (interstitial %+v)", rep, rep.Interstitial)
	}
	if n := providertest.Shared(t).Server.SubmissionCount(sim.ChatGPT); n != 0 {
		t.Fatalf("the check sent %d prompt(s)", n)
	}
}

func TestAStreamThePatternMissesIsReportedWithTheOverrideThatCatchesIt(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	f, err := provider.Lookup(sim.Claude)
	if err != nil {
		t.Fatal(err)
	}
	tab := providertest.Open(t, ctx, sim.Claude, f, providertest.Setup{})
	if _, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Which ferry streams?"}); err != nil {
		t.Fatal(err)
	}
	s, err := tab.Sites.Get(sim.Claude)
	if err != nil {
		t.Fatal(err)
	}

	rep := sitecheck.Check(ctx, tab.Page, s, tab.Sites)
	if !rep.OK || rep.Stream == nil || rep.Stream.Status != sitecheck.StreamOK {
		t.Fatalf("the site's own pattern: ok %v, stream %+v, problems %v", rep.OK, rep.Stream, rep.Problems)
	}

	// The site moved its stream: the built-in pattern no longer matches.
	moved, err := tab.Sites.Merge(site.Override{ID: sim.Claude, Stream: &site.StreamOverride{PathPattern: `^/api/v9/append_message$`}})
	if err != nil {
		t.Fatal(err)
	}
	ms, _ := moved.Get(sim.Claude)
	rep = sitecheck.Check(ctx, tab.Page, ms, moved)
	if rep.OK || rep.Stream == nil || rep.Stream.Status != sitecheck.StreamMissed || !strings.Contains(rep.Stream.Detail, "stream not captured on the last turn") {
		t.Fatalf("a missed stream: ok %v, stream %+v", rep.OK, rep.Stream)
	}
	o, err := site.ParseOverrides([]byte("[" + rep.Stream.Override + "]"))
	if err != nil {
		t.Fatalf("the stream override %s: %v", rep.Stream.Override, err)
	}
	fixed, err := moved.Merge(o...)
	if err != nil {
		t.Fatal(err)
	}
	fs, _ := fixed.Get(sim.Claude)
	if rep = sitecheck.Check(ctx, tab.Page, fs, fixed); !rep.OK || rep.Stream.Status != sitecheck.StreamOK {
		t.Fatalf("with the override: ok %v, stream %+v, problems %v", rep.OK, rep.Stream, rep.Problems)
	}
	if n := tab.H.Server.SubmissionCount(sim.Claude); n != 1 {
		t.Fatalf("%d submissions, want the ask's 1", n)
	}
}

// TestTheCheckNamesTheLayoutItSees: after a turn, the check names the
// known layout of each aspect the page shows (ChatGPT's turn markup and its
// Chat/Work toggle, Claude's finished bar), the older one on the older
// page, and says so when the page shows an aspect in no layout it knows.
func TestTheCheckNamesTheLayoutItSees(t *testing.T) {
	for _, tc := range []struct {
		site, scenario string
		want           map[string]string
	}{
		{sim.ChatGPT, "", map[string]string{"turns": "2026-09-29 markup", "chat kind": "Chat/Work toggle (2026-07)", "picker trigger": "Intelligence trigger (2026-09-28)"}},
		{sim.ChatGPT, sim.ScenarioOlderTurns, map[string]string{"turns": "article markup (before 2026-09-29)", "chat kind": "Chat/Work toggle (2026-07)", "picker trigger": "Intelligence trigger (2026-09-28)"}},
		{sim.ChatGPT, sim.ScenarioPickerIntelligence, map[string]string{"turns": "2026-09-29 markup", "chat kind": "Chat/Work toggle (2026-07)", "picker trigger": "composer pill (2026-07 to 09)"}},
		{sim.Claude, "", map[string]string{"finished bar": "without test ids (2026-08)"}},
		{sim.Claude, sim.ScenarioOlderTurns, map[string]string{"finished bar": "action-bar test ids (before 2026-08)"}},
	} {
		t.Run(tc.site+" "+tc.scenario, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			f, err := provider.Lookup(tc.site)
			if err != nil {
				t.Fatal(err)
			}
			tab := providertest.Open(t, ctx, tc.site, f, providertest.Setup{Scenario: tc.scenario})
			if _, err := tab.Ask(t, ctx, providertest.Request{Prompt: "Which layout is this?"}); err != nil {
				t.Fatal(err)
			}
			s, _ := tab.Sites.Get(tc.site)
			rep := sitecheck.Check(ctx, tab.Page, s, tab.Sites)
			got := map[string]string{}
			for _, l := range rep.Layouts {
				if l.Unknown {
					t.Errorf("aspect %s reads as unknown", l.Aspect)
				}
				got[l.Aspect] = l.Layout
			}
			if len(got) != len(tc.want) {
				t.Fatalf("layouts %+v, want %v", rep.Layouts, tc.want)
			}
			for a, w := range tc.want {
				if got[a] != w {
					t.Fatalf("layouts %+v, want %v", rep.Layouts, tc.want)
				}
			}
			// A page whose turns match none of the signs Ferry knows.
			s.Layouts = []site.LayoutSign{{Aspect: "turns", Name: "a layout of tomorrow", Selector: "[data-turns-of-tomorrow]", Role: site.RoleAssistantTurn}}
			rep = sitecheck.Check(ctx, tab.Page, s, tab.Sites)
			if len(rep.Layouts) != 1 || !rep.Layouts[0].Unknown || rep.Layouts[0].Layout != "" {
				t.Fatalf("layouts %+v, want the turns' layout unknown", rep.Layouts)
			}
		})
	}
}

// TestTheCheckWaitsForAPickerThatMountsLate: ChatGPT's model picker mounts
// seconds after the page is interactive; a check of a freshly loaded page
// waits for it instead of calling it missing.
func TestTheCheckWaitsForAPickerThatMountsLate(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	f, err := provider.Lookup(sim.ChatGPT)
	if err != nil {
		t.Fatal(err)
	}
	tab := providertest.Open(t, ctx, sim.ChatGPT, f, providertest.Setup{Params: map[string]string{"picker_ms": "2500"}})
	s, _ := tab.Sites.Get(sim.ChatGPT)
	rep := sitecheck.Check(ctx, tab.Page, s, tab.Sites)
	for _, r := range rep.Roles {
		if r.Role == string(site.RoleModelPicker) && r.Status != service.RoleOK {
			t.Fatalf("model_picker %+v, want ok once the picker mounted", r)
		}
	}
	if !rep.OK {
		t.Fatalf("report %+v, want ok", rep)
	}
}
