package providertest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simimage"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
)

// Config tunes the suite for one adapter.
type Config struct {
	// Model is a non-default model alias whose answer proves itself (the
	// site's Model.Proof); "" leaves out the model-selection test.
	Model string
	// DriftRoles maps the simulator's Drift keys of the site to registry
	// roles; nil uses DefaultDriftRoles.
	DriftRoles map[string]site.Role
	// Canonical, if set, checks a normal answer against the site's own
	// record of it (e.g. ChatGPT's conversation API read from Go).
	Canonical func(t *testing.T, h *Harness, res *provider.Result)
	// Timeout bounds each test (default 45 s).
	Timeout time.Duration
	// Layouts are page scenarios of the site's other layouts (an older
	// turn markup, another transient address): the answer, DOM-path and
	// follow-up cases run again on each, as they do on the site's newest
	// layout, the simulator's default.
	Layouts []string
	// PickerLayouts are page scenarios of the site's other model pickers:
	// the model-selection case runs again on each.
	PickerLayouts []string
	// Images is the deliverable that brings a turn's generated images
	// home (runs.ImagesHome into the directory it is given): required of a
	// site whose simulator makes images (sim.ScenarioImage).
	Images func(dir string) job.Deliverable
	// Deviations names, by simulator scenario, the interstitial cases whose
	// reference outcome cannot apply to the site as it really behaves (say,
	// Gemini words a rate limit exactly as its usage cap). The suite asserts
	// the stated code instead and logs why: nothing is skipped silently.
	Deviations map[string]Deviation
}

// Deviation is what a site reports instead of the suite's expected code,
// and why.
type Deviation struct {
	Code errs.Code
	Why  string
}

// DefaultDriftRoles maps the simulator's drift keys to the roles they replace.
var DefaultDriftRoles = map[string]site.Role{
	"composer": site.RoleComposer,
	"send":     site.RoleSend,
	"stop":     site.RoleStop,
	"answer":   site.RoleAnswerBody,
	"copy":     site.RoleFinished,
	"done":     site.RoleFinished,
}

// Run runs the conformance suite for the adapter of siteID built by f.
// Tests run one after another: the simulator's scenarios are server-wide.
func Run(t *testing.T, siteID string, f provider.Factory, cfg Config) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = 45 * time.Second
	}
	if cfg.DriftRoles == nil {
		cfg.DriftRoles = DefaultDriftRoles
	}
	c := &suite{site: siteID, f: f, cfg: cfg}
	t.Run("a logged-in page is ready", c.ready)
	t.Run("a logged-out page needs a login", c.loggedOut)
	t.Run("compose types the prompt, reads it back and sends nothing", c.compose)
	t.Run("a prompt is sent exactly once and its streamed answer is returned with proof", c.normal)
	t.Run("with the stream disabled the DOM rules complete the turn", c.domOnly)
	t.Run("a follow-up in the same conversation returns its own answer, never the one before", c.followUp)
	t.Run("with the stream disabled no pause, thinking or tool phase ends the turn early", c.noEarlyEnd)
	t.Run("code blocks are extracted", c.codeBlocks)
	if cfg.Model != "" {
		t.Run("the selected model is proven", c.model)
	} else {
		t.Logf("model selection does not apply to %s: the adapter's Config names no model alias to select and prove", siteID)
	}
	t.Run("interstitials come back as envelopes, not hangs or answers", c.interstitials)
	t.Run("a usage cap ends the run at once with its reset time and is never resent", c.usageCaps)
	t.Run("a short rate limit is cooled down and sent once more", c.rateLimitRetry)
	if implements(sim.ScenarioThinking, siteID) {
		t.Run("thinking is never the answer, on the stream and on the page", c.thinking)
	}
	if implements(sim.ScenarioStreamHandoff, siteID) {
		t.Run("a turn handed off to the page's socket is followed there to its end", c.handoff)
	}
	if implements(sim.ScenarioRenamedSend, siteID) {
		t.Run("a renamed send test id still sends once", c.renamedSend)
	}
	if implements(sim.ScenarioImage, siteID) {
		t.Run("a generated image comes home byte-exact with its provenance, sent once", c.images)
	}
	if st, err := site.Builtin().Get(siteID); err == nil && len(st.Tools) > 0 {
		t.Run("each composer tool is switched on and proven by the send, or refused saying whether anything was sent", func(t *testing.T) { c.tools(t, st) })
	}
	t.Run("a drifted page fails clearly and works with a settings override", c.drift)
	t.Run("a send control out of view or covered is clicked where it shows, or named", c.aim)
	t.Run("a tab that navigated away pauses until it returns", c.navigatedAway)
	t.Run("a capability refusal types nothing", c.capability)
	t.Run("a cancel mid-stream stops the site and the next send on the tab goes through at once", c.cancelStops)
	t.Run("a site that will not stop is said so by the cancelled run", c.cancelRefused)
	for _, l := range cfg.Layouts {
		if !implements(l, siteID) {
			t.Fatalf("layout %q is not a page scenario the simulator's %s implements", l, siteID)
		}
		lc := *c
		lc.layout = l
		t.Run("on the "+l+" layout", func(t *testing.T) {
			t.Run("a prompt is sent exactly once and its streamed answer is returned with proof", lc.normal)
			t.Run("with the stream disabled the DOM rules complete the turn", lc.domOnly)
			t.Run("a follow-up in the same conversation returns its own answer, never the one before", lc.followUp)
		})
	}
}

type suite struct {
	site   string
	f      provider.Factory
	cfg    Config
	layout string // the page scenario every test opens on unless it names one
}

func (c *suite) open(t *testing.T, setup Setup) (*Tab, context.Context) {
	t.Helper()
	mu.Lock()
	t.Cleanup(mu.Unlock)
	ctx, cancel := context.WithTimeout(context.Background(), c.cfg.Timeout)
	t.Cleanup(cancel)
	if setup.Scenario == "" {
		setup.Scenario = c.layout
	}
	return Open(t, ctx, c.site, c.f, setup), ctx
}

// openOn opens a tab as open does, the answer read on path: "stream", or
// "dom" with the site's stream disabled.
func (c *suite) openOn(t *testing.T, path string) (*Tab, context.Context) {
	t.Helper()
	setup := Setup{}
	if path == "dom" {
		setup.Overrides = []site.Override{{ID: c.site, Stream: &site.StreamOverride{Disabled: true}}}
	}
	return c.open(t, setup)
}

// wantCode fails the test unless err is an envelope with code.
func wantCode(t *testing.T, err error, code errs.Code) {
	t.Helper()
	if err == nil {
		t.Fatalf("got no error, want %s", code)
	}
	if got := errs.CodeOf(err); got != code {
		t.Fatalf("got %s (%v), want %s", got, err, code)
	}
	var e *errs.Envelope
	if e = errs.From(err); e.Message == "" || e.RetryHint == "" {
		t.Fatalf("envelope %s lacks a message or a hint: %+v", code, e)
	}
}

func (c *suite) submissions(tab *Tab) int { return tab.H.Server.SubmissionCount(c.site) }

func (c *suite) ready(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	if err := tab.Adapter.Ready(ctx); err != nil {
		t.Fatalf("Ready on a logged-in page: %v", err)
	}
	if got := tab.Adapter.TargetID(); got != tab.Page.ID() {
		t.Fatalf("adapter controls %s, want the tab it was given %s", got, tab.Page.ID())
	}
}

func (c *suite) loggedOut(t *testing.T) {
	tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioLoggedOut})
	start := time.Now()
	wantCode(t, tab.Adapter.Ready(ctx), errs.LoginRequired)
	// The login probe runs before the composer is looked for: a login
	// wall is named at once, not after the wait for a composer.
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("login_required took %s: the page's login wall was not seen before the wait for a composer", d)
	}
	_, err := tab.Ask(t, ctx, Request{Prompt: "hello"})
	wantCode(t, err, errs.LoginRequired)
	if n := c.submissions(tab); n != 0 {
		t.Fatalf("%d submissions while logged out, want 0", n)
	}
}

func (c *suite) compose(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	if err := tab.Adapter.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	prompt := "Compose check: naïve café 日本語 🚢\nsecond line"
	if err := tab.Adapter.Compose(ctx, prompt); err != nil {
		t.Fatalf("Compose: %v", err)
	}
	sel := firstSelector(t, ctx, tab, site.RoleComposer)
	got, err := tab.Page.ReadBack(ctx, sel)
	if err != nil {
		t.Fatal(err)
	}
	if collapse(got) != collapse(prompt) {
		t.Fatalf("composer holds %q, want %q", got, prompt)
	}
	// A second compose replaces the draft instead of appending to it.
	if err := tab.Adapter.Compose(ctx, "replacement"); err != nil {
		t.Fatalf("Compose over a draft: %v", err)
	}
	if got, _ := tab.Page.ReadBack(ctx, sel); collapse(got) != "replacement" {
		t.Fatalf("composer holds %q after a second compose, want only the new prompt", got)
	}
	time.Sleep(300 * time.Millisecond)
	if n := c.submissions(tab); n != 0 {
		t.Fatalf("compose sent %d prompts, want 0", n)
	}
}

func (c *suite) normal(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	// The answer holds before its last piece until Ferry has reported a
	// partial, however loaded the machine: the answer grows in two
	// partials at least, the first without the last piece.
	prompt := "What is the capital of France?\n" + sim.Directive(sim.ScenarioNormal, "hold", "grown")
	var partials []provider.Partial
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt, OnPartial: func(p provider.Partial) {
		partials = append(partials, p)
		tab.H.Server.Release("grown")
	}})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if n := c.submissions(tab); n != 1 {
		t.Fatalf("the site received %d submissions, want exactly 1", n)
	}
	if subs := tab.H.Server.Submissions(c.site); subs[0].Prompt != prompt {
		t.Fatalf("the site received %q, want %q", subs[0].Prompt, prompt)
	}
	want := NormalAnswer(prompt)
	if res.Answer != want {
		t.Fatalf("answer\n%q\nwant\n%q", res.Answer, want)
	}
	// The simulator streams the answer in dozens of pieces; a loaded
	// machine may deliver several of them in one DevTools event, so two
	// growing partials (the hold above makes sure of them) are the least
	// that proves streaming.
	if len(partials) < 2 {
		t.Fatalf("%d partial updates, want the answer to grow in several", len(partials))
	}
	for i := 1; i < len(partials); i++ {
		if !partials[i].Rewritten && !strings.HasPrefix(partials[i].Text, partials[i-1].Text) {
			t.Fatalf("partial %d does not extend the previous one", i)
		}
		if partials[i].Added == "" {
			t.Fatalf("partial %d adds nothing", i)
		}
	}
	if first := partials[0].Text; utf8.RuneCountInString(first) >= utf8.RuneCountInString(want) {
		t.Fatalf("the first partial already holds the whole answer: nothing streamed")
	}
	if last := partials[len(partials)-1].Text; collapse(last) != collapse(want) {
		t.Fatalf("the last partial %q is not the answer", last)
	}
	if res.Routing.ControlledTabID != tab.Page.ID() || res.Routing.Mismatch || res.Routing.TabWasCreated {
		t.Fatalf("routing proof %+v, want the test's tab %s", res.Routing, tab.Page.ID())
	}
	if want := provider.ContentOf(want, res.Content.Source); res.Content.SHA256 != want.SHA256 || res.Content.Bytes != want.Bytes {
		t.Fatalf("content proof %+v, want %+v", res.Content, want)
	}
	if tab.Site.Stream != nil && (res.Transport.Source != "stream" || !strings.HasPrefix(res.Transport.CompleteReason, "stream:")) {
		t.Fatalf("transport %+v, want the network stream to complete the turn", res.Transport)
	}
	if tab.Site.Stream == nil {
		t.Logf("stream capture does not apply to %s: the site has no network stream Ferry decodes; the DOM rules complete the turn", c.site)
		if res.Transport.Source != "dom" || !strings.HasPrefix(res.Transport.CompleteReason, "dom:") {
			t.Fatalf("transport %+v, want the DOM rules on a site without a stream", res.Transport)
		}
	}
	if res.Model.Slug == "" || res.Model.Source == "" {
		t.Fatalf("model proof %+v names no model or no source", res.Model)
	}
	if c.cfg.Canonical != nil {
		c.cfg.Canonical(t, tab.H, res)
	}
	t.Logf("answer in %d ms (wait %d ms, first text %d ms), %d partials, transport %s",
		res.Timings.TotalMS, res.Timings.WaitMS, res.Timings.FirstTextM, len(partials), res.Transport.CompleteReason)
}

func (c *suite) domOnly(t *testing.T) {
	tab, ctx := c.openOn(t, "dom")
	// Paced as in normal: however loaded the machine, the DOM shows the
	// answer growing in several looks (the last CI saw one at full speed).
	prompt := "Describe the DOM path\n" + sim.Directive(sim.ScenarioNormal, "chunk", "8", "interval", "60ms")
	var partials int
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt, OnPartial: func(provider.Partial) { partials++ }})
	if err != nil {
		t.Fatalf("Ask without the stream: %v", err)
	}
	if res.Transport.Source != "dom" || !strings.HasPrefix(res.Transport.CompleteReason, "dom:") {
		t.Fatalf("transport %+v, want the DOM rules", res.Transport)
	}
	if collapse(res.Answer) != collapse(NormalAnswer(prompt)) {
		t.Fatalf("DOM answer %q, want %q", res.Answer, NormalAnswer(prompt))
	}
	// The quiet window is the fallback for a page whose finished bar
	// drifted: a layout the adapter knows ends on its finished bar.
	if !strings.HasPrefix(res.Transport.CompleteReason, "dom:action_bar") {
		t.Fatalf("transport %+v: the finished bar (%s) never matched", res.Transport, strings.Join(tab.Site.Selector(site.RoleFinished), " | "))
	}
	if partials < 2 {
		t.Fatalf("%d partial updates from the DOM, want several", partials)
	}
	if n := c.submissions(tab); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
	t.Logf("DOM path: wait %d ms", res.Timings.WaitMS)
}

// followUp: a second prompt in the conversation the tab shows comes back
// with its own answer, never the first one still on the page, on the
// stream and on the DOM path (where a site without a user-turn selector
// reads the last answer turn, which is the first answer until the second
// one mounts).
func (c *suite) followUp(t *testing.T) {
	for _, path := range []string{"stream", "dom"} {
		t.Run("on the "+path+" path", func(t *testing.T) {
			tab, ctx := c.openOn(t, path)
			conv := ""
			for i, prompt := range []string{"Open the conversation", "Follow it up"} {
				res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
				if err != nil {
					t.Fatalf("prompt %d: %v", i+1, err)
				}
				if collapse(res.Answer) != collapse(NormalAnswer(prompt)) {
					t.Fatalf("prompt %d answered %q, want %q", i+1, res.Answer, NormalAnswer(prompt))
				}
				if path == "dom" && res.Transport.Source != "dom" {
					t.Fatalf("prompt %d: transport %+v, want the page", i+1, res.Transport)
				}
				// A new chat's transient address (ChatGPT's /c/WEB:<uuid>)
				// is never recorded, nor taken for the conversation's id.
				if _, transient := tab.Site.Conversation(res.Routing.URL); transient {
					t.Fatalf("prompt %d recorded the transient address %s", i+1, res.Routing.URL)
				}
				if i == 0 {
					conv = res.ConversationID
				} else if res.ConversationID != conv {
					t.Fatalf("the follow-up names conversation %q, the first prompt %q", res.ConversationID, conv)
				}
			}
			if n := c.submissions(tab); n != 2 {
				t.Fatalf("%d submissions, want 2", n)
			}
			if conv != "" {
				if n := tab.H.Server.ConversationSubmissions(c.site, conv); n != 2 {
					t.Fatalf("%d prompts in conversation %s, want both", n, conv)
				}
			}
		})
	}
}

func (c *suite) codeBlocks(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	res, err := tab.Ask(t, ctx, Request{Prompt: "Write a greeting " + sim.Directive(sim.ScenarioInlineCode)})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	want := []provider.CodeBlock{{Language: "python", Code: InlinePython}, {Language: "bash", Code: InlineShell}}
	if len(res.CodeBlocks) != len(want) {
		t.Fatalf("%d code blocks %+v, want %d", len(res.CodeBlocks), res.CodeBlocks, len(want))
	}
	for i, b := range want {
		if res.CodeBlocks[i] != b {
			t.Fatalf("code block %d = %+v, want %+v", i, res.CodeBlocks[i], b)
		}
	}
}

func (c *suite) model(t *testing.T) {
	for _, layout := range append([]string{""}, c.cfg.PickerLayouts...) {
		name := layout
		if name == "" {
			name = "the newest picker"
		}
		t.Run(name, func(t *testing.T) { c.modelOn(t, layout) })
	}
}

func (c *suite) modelOn(t *testing.T, layout string) {
	tab, ctx := c.open(t, Setup{Scenario: layout})
	res, err := tab.Ask(t, ctx, Request{Prompt: "Which model are you?", Model: c.cfg.Model})
	if err != nil {
		t.Fatalf("Ask with model %s: %v", c.cfg.Model, err)
	}
	m, _ := tab.Site.Model(c.cfg.Model)
	if !res.Model.Verified || res.Model.Requested != c.cfg.Model || res.Model.Selected == "" {
		t.Fatalf("model proof %+v, want %s selected and verified", res.Model, c.cfg.Model)
	}
	ok := false
	for _, p := range m.Proof {
		ok = ok || strings.Contains(strings.ToLower(res.Model.Slug), p)
	}
	if !ok {
		t.Fatalf("slug %q does not prove %s (proof %v)", res.Model.Slug, c.cfg.Model, m.Proof)
	}
}

func (c *suite) interstitials(t *testing.T) {
	cases := []struct {
		name     string
		page     string // page scenario
		turn     string // turn scenario (directive)
		code     errs.Code
		sentOnce bool // the prompt reached the site (and was refused or failed)
	}{
		{"a Cloudflare challenge blocks before typing", sim.ScenarioCloudflare, "", errs.CloudflareChallenge, false},
		{"a rate limit is reported", "", sim.ScenarioRateLimit, errs.RateLimited, true},
		{"a usage cap is reported", "", sim.ScenarioUsageCap, errs.UsageCap, true},
		{"a conversation that is too long is reported", "", sim.ScenarioConversationTooLong, errs.ConversationTooLong, true},
		{"a generic error is reported", "", sim.ScenarioError, errs.GenerationError, true},
		{"a cut stream is reported", "", sim.ScenarioStreamCut, errs.GenerationError, true},
	}
	for _, tc := range cases {
		name := tc.page + tc.turn
		if !implements(name, c.site) {
			t.Logf("not applicable to %s: %q (the site has no such notice; the simulator does not render one for it)", c.site, tc.name)
			continue
		}
		if d, ok := c.cfg.Deviations[name]; ok {
			t.Logf("%s deviates on %s: want %s instead of %s because %s", name, c.site, d.Code, tc.code, d.Why)
			tc.code = d.Code
		}
		t.Run(tc.name, func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: tc.page})
			prompt := "Tell me something"
			switch {
			case tc.turn == sim.ScenarioRateLimit:
				// A short lock: the refusal is the same, and a late request
				// of this case cannot lock the site for the next case.
				prompt += " " + sim.Directive(tc.turn, "lock", "200ms")
			case tc.turn != "":
				prompt += " " + sim.Directive(tc.turn)
			}
			start := time.Now()
			res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
			if res != nil {
				t.Fatalf("got an answer %q under %s, want an envelope", res.Answer, name)
			}
			wantCode(t, err, tc.code)
			if ctx.Err() != nil {
				t.Fatalf("the test deadline passed: the adapter hung")
			}
			want := 0
			if tc.sentOnce {
				want = 1
			}
			if n := c.submissions(tab); n != want {
				t.Fatalf("%d submissions, want %d", n, want)
			}
			t.Logf("%s -> %s in %d ms", name, errs.CodeOf(err), time.Since(start).Milliseconds())
		})
	}
}

// usageCaps: a site's usage cap, on the page before the send or as the
// answer after it, ends the run at once as usage_cap with the reset time
// the site gave, with the interstitial policies on: never cooled down and
// resent.
func (c *suite) usageCaps(t *testing.T) {
	cases := []struct {
		name, page, turn string
		sends            int
	}{
		{"on the page before the send, nothing is typed or sent", sim.ScenarioUsageCapOnLoad, "", 0},
		{"as the answer after the send, the one submission stays the only one", "", sim.ScenarioUsageCap, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: tc.page})
			prompt := "Tell me something"
			if tc.turn != "" {
				prompt += " " + sim.Directive(tc.turn)
			}
			start := time.Now()
			res, err := tab.Ask(t, ctx, Request{Prompt: prompt, Cooldown: time.Second})
			if res != nil {
				t.Fatalf("got an answer %q at the usage cap, want usage_cap", res.Answer)
			}
			wantCode(t, err, errs.UsageCap)
			took := time.Since(start)
			if n := c.submissions(tab); n != tc.sends {
				t.Fatalf("%d submissions, want %d", n, tc.sends)
			}
			e := errs.From(err)
			if r := e.Evidence["retried"]; r != "" {
				t.Fatalf("the cap was retried (%s): %+v", r, e)
			}
			at, perr := time.Parse(time.RFC3339, e.Evidence["resets_at"])
			if perr != nil {
				t.Fatalf("the envelope names no reset time (evidence %v): %v", e.Evidence, perr)
			}
			// The simulator's caps reset 3 h after the refusal.
			if want := time.Now().Add(3 * time.Hour); at.Before(want.Add(-2*time.Minute)) || at.After(want.Add(2*time.Minute)) {
				t.Fatalf("reset time %s, want about %s", at, want.UTC().Format(time.RFC3339))
			}
			if !strings.Contains(e.RetryHint, e.Evidence["resets_at"]) {
				t.Fatalf("hint %q does not name the reset time", e.RetryHint)
			}
			if took > 10*time.Second {
				t.Fatalf("usage_cap took %s, want it at once", took)
			}
			t.Logf("usage cap (%s) -> %s in %d ms, resets at %s", tc.name, errs.CodeOf(err), took.Milliseconds(), e.Evidence["resets_at"])
		})
	}
}

// rateLimitRetry: a short rate limit (the site's 429 "Too many requests")
// follows one policy on every site, the one `ferry help ask` documents:
// cool down, then send once more on the same tab.
func (c *suite) rateLimitRetry(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	// The lock starts with the send, however long the way to it takes.
	tab.H.Server.LockAtNextSend(c.site, time.Second)
	prompt := "Try again later"
	// The sites' toasts go after 4 s: the cooldown outlasts them.
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt, Cooldown: 5 * time.Second})
	if d, ok := c.cfg.Deviations[sim.ScenarioRateLimit]; ok {
		t.Logf("%s deviates on a rate limit: want %s, sent once, because %s", c.site, d.Code, d.Why)
		wantCode(t, err, d.Code)
		if n := c.submissions(tab); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
		return
	}
	if err != nil {
		t.Fatalf("Ask under a short rate limit with the policy on: %v", err)
	}
	if collapse(res.Answer) != collapse(NormalAnswer(prompt)) {
		t.Fatalf("answer %q after the retry, want %q", res.Answer, NormalAnswer(prompt))
	}
	subs := tab.H.Server.Submissions(c.site)
	if len(subs) != 2 || !subs[0].Refused || subs[1].Refused {
		t.Fatalf("submissions %+v, want one refused and one answered", subs)
	}
	if len(res.Warnings) == 0 || !strings.Contains(strings.Join(res.Warnings, " "), "too many requests") {
		t.Fatalf("warnings %q do not say the prompt was sent again after a rate limit", res.Warnings)
	}
}

// thinking: the thoughts of a thinking model are never the answer, read
// from the stream or (stream disabled) from the page, where some sites
// render the thinking first, in the same markup as the answer.
func (c *suite) thinking(t *testing.T) {
	for _, path := range []string{"stream", "dom"} {
		t.Run("on the "+path+" path", func(t *testing.T) {
			tab, ctx := c.openOn(t, path)
			res, err := tab.Ask(t, ctx, Request{Prompt: "Think about it " + sim.Directive(sim.ScenarioThinking)})
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if !strings.HasPrefix(res.Answer, "After thinking it over: the answer is 42.") || !strings.HasSuffix(res.Answer, "Thinking text never belongs in the answer.") {
				t.Fatalf("answer %q, want the answer after the thinking", res.Answer)
			}
			for _, thought := range []string{"Considering what the user asks", "Checking a source"} {
				if strings.Contains(res.Answer, thought) {
					t.Fatalf("the thinking %q is in the answer %q", thought, res.Answer)
				}
			}
			if path == "dom" && res.Transport.Source != "dom" {
				t.Fatalf("transport %+v, want the page", res.Transport)
			}
		})
	}
}

// renamedSend: the send control's test id (or class) renamed, its
// aria-label or type kept: the second selector sends the prompt once.
func (c *suite) renamedSend(t *testing.T) {
	tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioRenamedSend})
	prompt := "Send me once"
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
	if err != nil {
		t.Fatalf("Ask with the send control's test id renamed: %v", err)
	}
	if res.Answer != NormalAnswer(prompt) {
		t.Fatalf("answer %q, want %q", res.Answer, NormalAnswer(prompt))
	}
	if n := c.submissions(tab); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
}

func implements(scenario, siteID string) bool {
	for _, info := range sim.Catalog {
		if info.Name != scenario {
			continue
		}
		if info.Sites == nil {
			return true
		}
		for _, s := range info.Sites {
			if s == siteID {
				return true
			}
		}
	}
	return false
}

func (c *suite) drift(t *testing.T) {
	t.Run("default selectors fail with composer_not_found and send nothing", func(t *testing.T) {
		tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioDriftedDOM})
		_, err := tab.Ask(t, ctx, Request{Prompt: "hello drift"})
		wantCode(t, err, errs.ComposerNotFound)
		if e := errs.From(err); !strings.Contains(e.RetryHint, "override") {
			t.Fatalf("hint %q does not say how to fix it", e.RetryHint)
		}
		if n := c.submissions(tab); n != 0 {
			t.Fatalf("%d submissions, want 0", n)
		}
	})
	t.Run("a settings override of the drifted roles works", func(t *testing.T) {
		o := site.Override{ID: c.site, Selectors: map[site.Role][]string{}}
		for key, sel := range sim.Drift[c.site] {
			if role, ok := c.cfg.DriftRoles[key]; ok {
				o.Selectors[role] = append(o.Selectors[role], sel)
			}
		}
		tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioDriftedDOM, Overrides: []site.Override{o}})
		prompt := "hello drift"
		res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
		if err != nil {
			t.Fatalf("Ask with the override: %v", err)
		}
		if res.Answer != NormalAnswer(prompt) {
			t.Fatalf("answer %q, want %q", res.Answer, NormalAnswer(prompt))
		}
		if n := c.submissions(tab); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})
}

func (c *suite) navigatedAway(t *testing.T) {
	tab, ctx := c.open(t, Setup{})
	// Away is another simulated site, whichever is registered, or the
	// simulator's index page when this is the only one.
	other, away := "", tab.H.Server.IndexURL()
	for _, id := range sim.Sites() {
		if id != c.site {
			other, away = id, sim.URL(id, "/")
			break
		}
	}
	if err := tab.Page.Navigate(ctx, away); err != nil {
		t.Fatal(err)
	}
	_, err := tab.Ask(t, ctx, Request{Prompt: "are you there?"})
	wantCode(t, err, errs.NavigatedAway)
	n := c.submissions(tab)
	if other != "" {
		n += tab.H.Server.SubmissionCount(other)
	}
	if n != 0 {
		t.Fatalf("%d submissions while away, want 0", n)
	}
	if err := tab.Page.Navigate(ctx, sim.URL(c.site, "/")); err != nil {
		t.Fatal(err)
	}
	res, err := tab.Ask(t, ctx, Request{Prompt: "are you there?"})
	if err != nil {
		t.Fatalf("Ask after the tab returned: %v", err)
	}
	if res.Answer != NormalAnswer("are you there?") || c.submissions(tab) != 1 {
		t.Fatalf("after returning: answer %q, %d submissions", res.Answer, c.submissions(tab))
	}
}

func (c *suite) capability(t *testing.T) {
	s, err := site.Builtin().Get(c.site)
	if err != nil {
		t.Fatal(err)
	}
	alias := c.cfg.Model
	if alias == "" && len(s.Models) > 0 {
		alias = s.Models[0].Alias
	}
	cases := []struct {
		name  string
		setup Setup
		req   Request
	}{
		{"an unknown model alias", Setup{}, Request{Model: "no-such-model"}},
		// Code mode is the one feature beyond chat a run asks for.
		{"a feature the site lacks", Setup{Overrides: []site.Override{{ID: c.site, Features: []site.Feature{site.FeatureChat}}}},
			Request{CodeMode: true}},
	}
	if alias != "" {
		// The site keeps every feature it has but model selection (a site
		// without a stream must not be given stream capture).
		var noModels []site.Feature
		for _, f := range s.Features {
			if f != site.FeatureModelSelection {
				noModels = append(noModels, f)
			}
		}
		cases = append(cases, struct {
			name  string
			setup Setup
			req   Request
		}{"a model on a site whose model selection is off", Setup{Overrides: []site.Override{{ID: c.site, Features: noModels}}},
			Request{Model: alias}})
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, ctx := c.open(t, tc.setup)
			tc.req.Prompt = "this must never be typed"
			_, err := tab.Ask(t, ctx, tc.req)
			wantCode(t, err, errs.CapabilityMissing)
			if err := tab.Adapter.Ready(ctx); err != nil {
				t.Fatal(err)
			}
			got, err := tab.Page.ReadBack(ctx, firstSelector(t, ctx, tab, site.RoleComposer))
			if err != nil {
				t.Fatal(err)
			}
			if strings.TrimSpace(got) != "" {
				t.Fatalf("the composer holds %q after a refusal, want nothing typed", got)
			}
			if n := c.submissions(tab); n != 0 {
				t.Fatalf("%d submissions, want 0", n)
			}
		})
	}
}

// firstSelector returns the first selector of role with a visible match.
func firstSelector(t *testing.T, ctx context.Context, tab *Tab, role site.Role) string {
	t.Helper()
	var idx int
	err := tab.Page.EvalInto(ctx, &idx, `(sels) => sels.findIndex((s) => Array.from(document.querySelectorAll(s)).some((e) => e.getClientRects().length > 0))`, tab.Site.Selector(role))
	if err != nil || idx < 0 {
		t.Fatalf("no visible %s on the page (%v)", role, err)
	}
	return tab.Site.Selector(role)[idx]
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

var directive = regexp.MustCompile(`\[\[sim:([^\]]*)\]\]`)

// NormalAnswer is the simulator's answer to prompt in the normal scenario
// (sim/answer.go normalText), the oracle of the suite.
func NormalAnswer(prompt string) string {
	p := strings.TrimSpace(directive.ReplaceAllString(prompt, ""))
	if i := strings.IndexByte(p, '\n'); i >= 0 {
		p = p[:i]
	}
	r := []rune(p)
	if len(r) > 60 {
		r = append(r[:60], '…')
	}
	topic := string(r)
	if topic == "" {
		topic = "your question"
	}
	return fmt.Sprintf("Here’s what I found about “%s”.\n\n"+
		"The simulator streams this answer in small pieces, including multibyte text like naïve café, 日本語 and 🚢 emoji, so decoders must join bytes before decoding.\n\n"+
		"That is the whole answer.", topic)
}

// The code of the simulator's inline_code scenario (sim/answer.go).
const (
	InlinePython = "def greet(name):\n    return f\"Hello, {name}!\"\n\nprint(greet(\"Ferry\"))"
	InlineShell  = "go test ./...\necho done"
)

// ShortWindow is Ferry's headless window: a short viewport where a site's
// controls can sit below the fold.
var ShortWindow = browser.Point{X: 780, Y: 437}

func (c *suite) aim(t *testing.T) {
	if implements(sim.ScenarioTallSend, c.site) {
		t.Run("a tall send control whose centre is below the fold is scrolled to and clicked once", func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioTallSend, Viewport: &ShortWindow})
			prompt := "Below the fold"
			// The simulator marks its tall control (the send selectors may
			// match it only once a prompt is typed).
			var geo struct {
				Top, Centre, H float64
			}
			if err := tab.Page.EvalInto(ctx, &geo, `() => { const r = document.querySelector('[data-sim-tall]').getBoundingClientRect();
  return {Top: r.top, Centre: r.top + r.height / 2, H: innerHeight}; }`); err != nil {
				t.Fatal(err)
			}
			if geo.Top >= geo.H || geo.Centre <= geo.H {
				t.Fatalf("the scenario's send control spans from %v (centre %v) in a %v high window; want its top in view and its centre below", geo.Top, geo.Centre, geo.H)
			}
			res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if res.Answer != NormalAnswer(prompt) {
				t.Fatalf("answer %q, want %q", res.Answer, NormalAnswer(prompt))
			}
			if n := c.submissions(tab); n != 1 {
				t.Fatalf("%d submissions, want exactly 1", n)
			}
		})
	} else {
		t.Logf("not applicable to %s: the simulator has no tall send control for it", c.site)
	}
	if implements(sim.ScenarioCoveredSend, c.site) {
		t.Run("a send control under a banner sends nothing and the failure names the banner", func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioCoveredSend, Viewport: &ShortWindow})
			_, err := tab.Ask(t, ctx, Request{Prompt: "Under the banner"})
			wantCode(t, err, errs.SendUnconfirmed)
			e := errs.From(err)
			if e.Evidence["sent"] != "false" {
				t.Errorf("evidence %v does not say nothing was sent", e.Evidence)
			}
			// The simulator marks its banner; the evidence must name it as a
			// person would find it: id, class and label.
			var cover struct{ ID, Class, Label string }
			if err := tab.Page.EvalInto(ctx, &cover, `() => { const e = document.querySelector('[data-sim-cover]');
  return {ID: e.id, Class: e.classList[0] || '', Label: e.getAttribute('aria-label') || ''}; }`); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"#" + cover.ID, "." + cover.Class, cover.Label} {
				if !strings.Contains(e.Evidence["covered_by"], want) {
					t.Errorf("covered_by %q does not name %q", e.Evidence["covered_by"], want)
				}
			}
			if n := c.submissions(tab); n != 0 {
				t.Fatalf("%d submissions, want 0", n)
			}
		})
	}
}

// tools asks with each of the site's composer tools and checks its proof:
// the pill's words, the request naming the tool, the send carrying it;
// then, where the simulator has them, a menu without the tool (nothing
// sent) and a send that drops it (sent once, said so).
func (c *suite) tools(t *testing.T, st site.Site) {
	for _, tool := range st.Tools {
		t.Run(tool.Name, func(t *testing.T) {
			tab, ctx := c.open(t, Setup{})
			res, err := tab.Ask(t, ctx, Request{Prompt: "Use the " + tool.Name + " tool on the harbour", Tool: tool.Name})
			if err != nil {
				t.Fatalf("Ask with %s: %v", tool.Name, err)
			}
			if p := res.Tool; p == nil || !p.Verified || p.Requested != tool.Name || p.Request != tool.Request || p.Selected == "" {
				t.Fatalf("tool proof %+v, want %s verified by its request %q", res.Tool, tool.Name, tool.Request)
			}
			subs := tab.H.Server.Submissions(c.site)
			if len(subs) != 1 || !slices.Contains(subs[0].Tools, tool.Request) {
				t.Fatalf("submissions %+v, want one carrying %q", subs, tool.Request)
			}
		})
	}
	if implements(sim.ScenarioToolRowMissing, c.site) {
		t.Run("a menu without the tool sends nothing", func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioToolRowMissing})
			_, err := tab.Ask(t, ctx, Request{Prompt: "Not without the tool", Tool: st.Tools[0].Name})
			wantCode(t, err, errs.ToolUnavailable)
			if e := errs.From(err); e.Evidence["sent"] != "false" || c.submissions(tab) != 0 {
				t.Fatalf("evidence %v and %d submissions, want sent false and none", e.Evidence, c.submissions(tab))
			}
		})
	}
	if implements(sim.ScenarioToolNotSent, c.site) {
		t.Run("a send that drops the tool is said so, sent once", func(t *testing.T) {
			tab, ctx := c.open(t, Setup{Scenario: sim.ScenarioToolNotSent})
			_, err := tab.Ask(t, ctx, Request{Prompt: "The tool fell off", Tool: st.Tools[0].Name})
			wantCode(t, err, errs.ToolUnavailable)
			if e := errs.From(err); e.Evidence["sent"] != "true" || c.submissions(tab) != 1 {
				t.Fatalf("evidence %v and %d submissions, want sent true and one", e.Evidence, c.submissions(tab))
			}
		})
	}
}

// images asks for two generated images and checks each saved file is the
// PNG the simulator served (simimage.PNG of the site's file id), verified,
// at its size, with its provenance sidecar, the prompt sent once.
func (c *suite) images(t *testing.T) {
	if c.cfg.Images == nil {
		t.Fatalf("the %s simulator makes images (%s): set Config.Images to the deliverable that brings them home", c.site, sim.ScenarioImage)
	}
	tab, ctx := c.open(t, Setup{})
	dir := t.TempDir()
	prompt := "Draw two gulls over the harbour " + sim.Directive(sim.ScenarioImage, "count", "2", "size", "400x300")
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt, Deliverable: c.cfg.Images(dir)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Images) != 2 {
		t.Fatalf("images %+v, want two", res.Images)
	}
	for _, img := range res.Images {
		got, err := os.ReadFile(img.Path)
		if err != nil {
			t.Fatal(err)
		}
		if img.Kind != record.ArtifactImage || img.Verdict != "verified" || img.Width != 400 || img.Height != 300 || !bytes.Equal(got, simimage.PNG(img.SiteFile, 400, 300)) {
			t.Fatalf("image %+v is not the 400x300 PNG the site served", img)
		}
		if filepath.Dir(img.Path) != dir {
			t.Fatalf("image saved at %s, outside %s", img.Path, dir)
		}
		if _, err := os.Stat(img.Path + ".provenance.json"); err != nil {
			t.Fatalf("no provenance beside %s: %v", img.Path, err)
		}
	}
	if n := c.submissions(tab); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
}
