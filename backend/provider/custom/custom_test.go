package custom_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/custom"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestMain(m *testing.M) { providertest.Main(m) }

// customID is the site the tests define in settings: DeepSeek's page under
// another id, with no stream and every selector given explicitly, those of
// the drifted page included — what a user writes for a site Ferry does not
// know.
const customID = "mydeep"

// customSite is the settings entry, as the user writes it in settings.json.
var customSite = `{
  "id": "mydeep",
  "name": "My DeepSeek",
  "address": "https://chat.deepseek.com/",
  "loginPaths": ["/sign_in"],
  "selectors": {
    "composer": ["textarea[placeholder=\"Ask DeepSeek\"]"],
    "send": ["[role=\"button\"].ds-btn--main:not(.ds-button--disabled)"],
    "stop": [".ds-loading"],
    "busy": [".ds-loading"],
    "assistant_turn": [".ds-assistant-message-main-content"],
    "answer_body": [".ds-assistant-message-main-content .ds-md"],
    "code_block": [".md-code-block pre"],
    "finished": ["[role='button'][aria-label='Read aloud']"]
  },
  "typing": ["native_setter", "input_event"],
  "send": "click"
}`

// registry is the site registry of settings holding the given site
// entries, built the way Ferry builds it for a run.
func registry(t *testing.T, entries ...string) (*site.Registry, error) {
	t.Helper()
	s := config.Defaults()
	for _, e := range entries {
		s.Sites = append(s.Sites, json.RawMessage(e))
	}
	return runs.SiteRegistry(s)
}

// open resets the simulator to the DeepSeek page scenario, opens DeepSeek's
// page in a fresh browser context and builds the adapter of the custom site
// through provider.New, as a run does.
func open(t *testing.T, scenario string) (provider.Adapter, *providertest.Harness, context.Context, func() string) {
	t.Helper()
	h := providertest.Shared(t)
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	t.Cleanup(cancel)
	h.Server.Reset()
	if scenario != "" {
		h.Server.SetScenario(sim.DeepSeek, sim.Scenario{Name: scenario})
	}
	reg, err := registry(t, customSite)
	if err != nil {
		t.Fatalf("build the registry with the custom site: %v", err)
	}
	s, err := reg.Get(customID)
	if err != nil {
		t.Fatal(err)
	}
	bc, err := h.Browser.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = bc.Dispose(c)
	})
	p, err := bc.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, sim.URL(sim.DeepSeek, "/")); err != nil {
		t.Fatal(err)
	}
	a, err := provider.New(provider.Env{Page: p, Site: s, Sites: reg, ReadyTimeout: 5 * time.Second})
	if err != nil {
		t.Fatalf("provider.New for the custom site: %v", err)
	}
	if _, ok := a.(*custom.Adapter); !ok {
		t.Fatalf("provider.New gave a %T, want the custom adapter", a)
	}
	readBack := func() string {
		got, err := p.ReadBack(ctx, s.Selector(site.RoleComposer)[0])
		if err != nil {
			t.Fatalf("read the composer back: %v", err)
		}
		return got
	}
	return a, h, ctx, readBack
}

func wantCode(t *testing.T, err error, code errs.Code) {
	t.Helper()
	if got := errs.CodeOf(err); err == nil || got != code {
		t.Fatalf("got %v (%s), want %s", err, got, code)
	}
	if e := errs.From(err); e.Message == "" || e.RetryHint == "" {
		t.Fatalf("envelope %s lacks a message or a hint: %+v", code, e)
	}
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestConformance runs the conformance suite's core cases on a site that
// exists only in settings.
func TestConformance(t *testing.T) {
	t.Run("a logged-in page is ready", func(t *testing.T) {
		a, _, ctx, _ := open(t, sim.ScenarioDriftedDOM)
		if err := a.Ready(ctx); err != nil {
			t.Fatalf("Ready: %v", err)
		}
		if a.Site().ID != customID {
			t.Fatalf("the adapter drives %q, want %q", a.Site().ID, customID)
		}
	})
	t.Run("compose types the prompt, reads it back and sends nothing", func(t *testing.T) {
		a, h, ctx, readBack := open(t, sim.ScenarioDriftedDOM)
		if err := a.Ready(ctx); err != nil {
			t.Fatal(err)
		}
		prompt := "Compose check: naïve café 日本語 🚢\nsecond line"
		if err := a.Compose(ctx, prompt); err != nil {
			t.Fatalf("Compose: %v", err)
		}
		if got := readBack(); collapse(got) != collapse(prompt) {
			t.Fatalf("composer holds %q, want %q", got, prompt)
		}
		if err := a.Compose(ctx, "replacement"); err != nil {
			t.Fatalf("Compose over a draft: %v", err)
		}
		if got := readBack(); collapse(got) != "replacement" {
			t.Fatalf("composer holds %q after a second compose, want only the new prompt", got)
		}
		time.Sleep(300 * time.Millisecond)
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 0 {
			t.Fatalf("compose sent %d prompts, want 0", n)
		}
	})
	t.Run("a prompt is sent once and the DOM rules return its answer", func(t *testing.T) {
		a, h, ctx, _ := open(t, sim.ScenarioDriftedDOM)
		// The answer holds before its last piece until a partial is
		// reported: two partials at least, however loaded the machine.
		prompt := "What is the capital of France?\n" + sim.Directive(sim.ScenarioDriftedDOM, "hold", "grown")
		var partials []provider.Partial
		res, err := providertest.Ask(t, ctx, a, providertest.Request{Prompt: prompt, OnPartial: func(p provider.Partial) {
			partials = append(partials, p)
			h.Server.Release("grown")
		}})
		if err != nil {
			t.Fatalf("Ask: %v", err)
		}
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 1 {
			t.Fatalf("the site received %d submissions, want exactly 1", n)
		}
		if got := h.Server.Submissions(sim.DeepSeek)[0].Prompt; got != prompt {
			t.Fatalf("the site received %q, want %q", got, prompt)
		}
		if want := providertest.NormalAnswer(prompt); collapse(res.Answer) != collapse(want) {
			t.Fatalf("answer\n%q\nwant\n%q", res.Answer, want)
		}
		if res.Transport.Source != "dom" || !strings.HasPrefix(res.Transport.CompleteReason, "dom:") {
			t.Fatalf("transport %+v, want the DOM rules (the custom site names no stream)", res.Transport)
		}
		if len(partials) < 2 {
			t.Fatalf("%d partial updates, want the answer to grow in several", len(partials))
		}
		if res.Site != customID || res.Routing.ControlledTabID != a.TargetID() || res.Routing.Mismatch {
			t.Fatalf("site %q routing %+v, want %s on the test's tab", res.Site, res.Routing, customID)
		}
		t.Logf("custom site answered by the DOM rules: wait %d ms, total %d ms, %d partials, %s",
			res.Timings.WaitMS, res.Timings.TotalMS, len(partials), res.Transport.CompleteReason)
	})
	t.Run("a logged-out page needs a login and nothing is sent", func(t *testing.T) {
		a, h, ctx, _ := open(t, sim.ScenarioLoggedOut)
		wantCode(t, a.Ready(ctx), errs.LoginRequired)
		_, err := providertest.Ask(t, ctx, a, providertest.Request{Prompt: "hello"})
		wantCode(t, err, errs.LoginRequired)
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 0 {
			t.Fatalf("%d submissions while logged out, want 0", n)
		}
	})
	t.Run("a Cloudflare challenge blocks before typing", func(t *testing.T) {
		a, h, ctx, _ := open(t, sim.ScenarioCloudflare)
		res, err := providertest.Ask(t, ctx, a, providertest.Request{Prompt: "Tell me something"})
		if res != nil {
			t.Fatalf("got an answer %q behind a challenge", res.Answer)
		}
		wantCode(t, err, errs.CloudflareChallenge)
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 0 {
			t.Fatalf("%d submissions behind a challenge, want 0", n)
		}
	})
}

// TestAnIncompleteCustomSiteNamesTheMissingRoles checks both gates: the
// settings that define the site, and the adapter given such a site.
func TestAnIncompleteCustomSiteNamesTheMissingRoles(t *testing.T) {
	t.Run("settings without send and finished selectors are refused naming both", func(t *testing.T) {
		_, err := registry(t, `{"id":"half","name":"Half","address":"https://chat.example.com/",
			"selectors":{"composer":["#prompt"],"stop":[".stop"],"assistant_turn":[".turn"],"answer_body":[".turn .md"]}}`)
		wantCode(t, err, errs.SiteIncomplete)
		missing := errs.From(err).Evidence["missing"]
		if !strings.Contains(missing, "selectors.send") || !strings.Contains(missing, "selectors.finished") || strings.Contains(missing, "composer") {
			t.Fatalf("missing %q, want exactly the send and finished roles", missing)
		}
	})
	t.Run("the adapter refuses a site lacking required roles before touching the page", func(t *testing.T) {
		s := site.Site{ID: "half", Selectors: map[site.Role][]string{site.RoleComposer: {"#prompt"}}}
		err := custom.Complete(s)
		wantCode(t, err, errs.SiteIncomplete)
		for _, r := range []site.Role{site.RoleSend, site.RoleStop, site.RoleAssistantTurn, site.RoleAnswerBody, site.RoleFinished} {
			if !strings.Contains(errs.From(err).Evidence["missing"], string(r)) {
				t.Errorf("missing %q does not name %s", errs.From(err).Evidence["missing"], r)
			}
		}
		if _, err := custom.New(provider.Env{Site: s}); errs.CodeOf(err) != errs.SiteIncomplete {
			t.Fatalf("New: %v, want site_incomplete", err)
		}
	})
	t.Run("a built-in site is not driven by the custom adapter", func(t *testing.T) {
		s, err := site.Builtin().Get(sim.DeepSeek)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := custom.New(provider.Env{Site: s}); errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("New for built-in deepseek: %v, want bad_input", err)
		}
	})
}
