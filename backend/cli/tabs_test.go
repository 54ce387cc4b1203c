package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/cli/internal/cmddoc"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// errorJSON is what ferry prints on stdout for a failure under --json.
type errorJSON struct {
	Error errs.Envelope `json:"error"`
}

// TestTabsOpenAndAmbiguity drives the built ferry binary against the
// simulator in headless Chromium, attached with --browser-url: listing
// tabs, opening one, refusing to guess between two tabs of a site, and a
// fresh chat with the prompt from a file.
func TestTabsOpenAndAmbiguity(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()

	// A DeepSeek tab whose address carries a token, and a tab on its
	// login page.
	chat, err := h.Browser.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := chat.Navigate(ctx, sim.URL(sim.DeepSeek, "/?session_token=s3cr3t#frag")); err != nil {
		t.Fatal(err)
	}
	login, err := h.Browser.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := login.Navigate(ctx, sim.URL(sim.DeepSeek, "/sign_in?next=%2F")); err != nil {
		t.Fatal(err)
	}

	t.Run("tabs --json lists every tab with its site and a redacted address", func(t *testing.T) {
		r := ferry(t, nil, "tabs", "--json", "--browser-url", url, "--data-dir", dataDir)
		if r.code != 0 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		if strings.Contains(r.stdout, "s3cr3t") || strings.Contains(r.stdout, "frag") {
			t.Fatalf("the listing leaks the address's token:\n%s", r.stdout)
		}
		var tabs []tabJSON
		if err := json.Unmarshal([]byte(r.stdout), &tabs); err != nil {
			t.Fatalf("stdout is not a JSON list of tabs: %v\n%s", err, r.stdout)
		}
		byID := map[string]tabJSON{}
		for _, tb := range tabs {
			byID[tb.ID] = tb
		}
		got, ok := byID[chat.ID()]
		if !ok {
			t.Fatalf("the DeepSeek tab %s is not listed: %+v", chat.ID(), tabs)
		}
		if got.Site != sim.DeepSeek || got.State != "" || got.URL != "https://chat.deepseek.com/" || got.Title == "" {
			t.Fatalf("DeepSeek tab listed as %+v", got)
		}
		if l := byID[login.ID()]; l.Site != sim.DeepSeek || l.State != "login" || l.URL != "https://chat.deepseek.com/sign_in" {
			t.Fatalf("login tab listed as %+v, want deepseek in state login", l)
		}
		for _, tb := range tabs {
			if tb.URL == "about:blank" && tb.Site != "" {
				t.Fatalf("a blank tab got a site: %+v", tb)
			}
		}
	})

	t.Run("tabs prints a table naming the TargetIDs", func(t *testing.T) {
		r := ferry(t, nil, "tabs", "--browser-url", url, "--data-dir", dataDir)
		if r.code != 0 || !strings.HasPrefix(r.stdout, "TARGETID") || !strings.Contains(r.stdout, chat.ID()) || !strings.Contains(r.stdout, "login") {
			t.Fatalf("exit %d:\n%s%s", r.code, r.stdout, r.stderr)
		}
	})

	var opened string
	t.Run("open deepseek prints the TargetID of a new background tab on the site", func(t *testing.T) {
		r := ferry(t, nil, "open", "deepseek", "--browser-url", url, "--data-dir", dataDir)
		if r.code != 0 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		opened = strings.TrimSpace(r.stdout)
		if opened == "" || opened == chat.ID() || opened == login.ID() {
			t.Fatalf("open printed %q, want a new TargetID", r.stdout)
		}
		targets, err := h.Browser.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tg := range targets {
			if tg.ID == opened {
				if !strings.HasPrefix(tg.URL, "https://chat.deepseek.com/") {
					t.Fatalf("the new tab is at %s", tg.URL)
				}
				t.Logf("ferry open took %s", r.took)
				return
			}
		}
		t.Fatalf("no tab %s in the browser", opened)
	})

	t.Run("two tabs of the site and no --tab fail closed listing both", func(t *testing.T) {
		r := ferry(t, nil, "ask", "--site", "deepseek", "--browser-url", url, "--data-dir", dataDir, "--json", "--prompt", "which tab?")
		if r.code != exitOf(errs.TabAmbiguous) {
			t.Fatalf("exit %d, want %d: %s %s", r.code, exitOf(errs.TabAmbiguous), r.stdout, r.stderr)
		}
		var e errorJSON
		if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e.Error.Code != errs.TabAmbiguous {
			t.Fatalf("stdout %s (%v), want a tab_ambiguous envelope", r.stdout, err)
		}
		listed := e.Error.Evidence["tabs"]
		if !strings.Contains(listed, chat.ID()) || !strings.Contains(listed, opened) || strings.Contains(listed, "s3cr3t") {
			t.Fatalf("the envelope lists %q, want both tabs %s and %s without tokens", listed, chat.ID(), opened)
		}
		picks := map[string]string{}
		for _, c := range e.Error.Tabs {
			picks[c.TargetID] = c.URL
		}
		if !strings.HasPrefix(picks[chat.ID()], "https://chat.deepseek.com/") || picks[opened] == "" ||
			strings.Contains(picks[chat.ID()]+picks[opened], "s3cr3t") {
			t.Fatalf("the envelope's tabs to pick from are %v, want %s and %s with their addresses, without tokens", e.Error.Tabs, chat.ID(), opened)
		}
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 0 {
			t.Fatalf("%d submissions, want none", n)
		}
	})

	t.Run("--new-chat asks the prompt of --prompt-file in a fresh tab", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "prompt.txt")
		prompt := "What is a ferry?\nAnswer briefly."
		if err := os.WriteFile(file, []byte(prompt), 0o600); err != nil {
			t.Fatal(err)
		}
		r := ferry(t, nil, "ask", "--site", "deepseek", "--new-chat", "--prompt-file", file, "--browser-url", url,
			"--data-dir", dataDir, "--timeout", "45s", "--json")
		if r.code != 0 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		var res provider.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
		}
		if res.Answer != providertest.NormalAnswer(prompt) {
			t.Fatalf("answer %q, want %q", res.Answer, providertest.NormalAnswer(prompt))
		}
		subs := h.Server.Submissions(sim.DeepSeek)
		if len(subs) != 1 || collapseSpace(subs[0].Prompt) != collapseSpace(prompt) {
			t.Fatalf("the site received %+v, want the file's prompt once", subs)
		}
		rt := res.Routing
		if !rt.TabWasCreated || rt.ControlledTabID == "" || rt.ControlledTabID == chat.ID() || rt.ControlledTabID == opened {
			t.Fatalf("routing %+v, want a new tab besides %s and %s", rt, chat.ID(), opened)
		}
		t.Logf("ferry ask --new-chat took %s; timings %+v", r.took, res.Timings)
	})

	t.Run("a site defined only in settings is asked through the custom adapter", func(t *testing.T) {
		d := t.TempDir()
		writeSites(t, d, customDeepSeek)
		h.Server.Reset()
		h.Server.SetScenario(sim.DeepSeek, sim.Scenario{Name: sim.ScenarioDriftedDOM})
		defer h.Server.Reset()
		prompt := "Hello from a custom site"
		r := ferry(t, nil, "ask", "--site", "mydeep", "--new-chat", "--browser-url", url, "--data-dir", d, "--timeout", "45s", "--json", prompt)
		if r.code != 0 {
			t.Fatalf("exit %d: %s %s", r.code, r.stdout, r.stderr)
		}
		var res provider.Result
		if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
			t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
		}
		if res.Site != "mydeep" || collapseSpace(res.Answer) != collapseSpace(providertest.NormalAnswer(prompt)) || res.Transport.Source != "dom" {
			t.Fatalf("site %q answer %q transport %+v", res.Site, res.Answer, res.Transport)
		}
		if n := h.Server.SubmissionCount(sim.DeepSeek); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})

	t.Run("an incomplete custom site is refused naming the missing roles", func(t *testing.T) {
		d := t.TempDir()
		writeSites(t, d, `{"id":"half","name":"Half","address":"https://chat.deepseek.com/","selectors":{"composer":["textarea"]}}`)
		r := ferry(t, nil, "ask", "--site", "half", "--browser-url", url, "--data-dir", d, "--json", "hello")
		var e errorJSON
		if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || r.code != exitOf(errs.SiteIncomplete) || e.Error.Code != errs.SiteIncomplete {
			t.Fatalf("exit %d stdout %s, want site_incomplete", r.code, r.stdout)
		}
		for _, role := range []string{"send", "stop", "assistant_turn", "answer_body", "finished"} {
			if !strings.Contains(e.Error.Evidence["missing"], "selectors."+role) {
				t.Errorf("missing %q does not name %s", e.Error.Evidence["missing"], role)
			}
		}
	})
}

// customDeepSeek is a user's site entry for DeepSeek's drifted page under
// its own id, every selector given explicitly and no stream.
const customDeepSeek = `{"id":"mydeep","name":"My DeepSeek","address":"https://chat.deepseek.com/","loginPaths":["/sign_in"],
  "selectors":{"composer":["textarea[placeholder=\"Ask DeepSeek\"]"],
    "send":["[role=\"button\"].ds-btn--main:not(.ds-button--disabled)"],
    "stop":[".ds-loading"],"busy":[".ds-loading"],
    "assistant_turn":[".ds-assistant-message-main-content"],
    "answer_body":[".ds-assistant-message-main-content .ds-md"],
    "finished":["[role='button'][aria-label='Read aloud']"]},
  "typing":["native_setter","input_event"],"send":"click"}`

// writeSites writes the settings of data directory dir with the given
// site entries (the settings file lives in the data directory given by
// --data-dir).
func writeSites(t *testing.T, dir string, entries ...string) {
	t.Helper()
	s := config.Defaults()
	for _, e := range entries {
		s.Sites = append(s.Sites, json.RawMessage(e))
	}
	if err := config.Save(filepath.Join(dir, "settings.json"), s); err != nil {
		t.Fatal(err)
	}
}

func collapseSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// TestBrowserFlagsAreCheckedBeforeTheBrowser covers the contradictions and
// absences the browser flags refuse, without any browser.
func TestBrowserFlagsAreCheckedBeforeTheBrowser(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	cases := []struct {
		name string
		args []string
		code errs.Code
		says string
	}{
		{"an unknown --browser is refused", []string{"tabs", "--browser", "borrow"}, errs.BadInput, "launch or attach"},
		{"--browser launch with --browser-url contradict", []string{"tabs", "--browser", "launch", "--browser-url", "ws://127.0.0.1:9/devtools/browser/x"}, errs.BadInput, "contradict"},
		{"launch options with attach are refused", []string{"ask", "--site", "chatgpt", "--browser", "attach", "--headless", "hi"}, errs.BadInput, "--headless"},
		{"browser flags before the command name reach the command", []string{"--headless", "--browser", "attach", "ask", "--site", "chatgpt", "hi"}, errs.BadInput, "--headless"},
		{"a browser flag before a command that takes none is refused", []string{"--headless", "sessions"}, errs.BadInput, "does not take --headless"},
		{"--new-chat with --tab is refused", []string{"ask", "--site", "chatgpt", "--new-chat", "--tab", "ABC", "hi"}, errs.BadInput, "--new-chat"},
		{"open refuses a browser that would close with it", []string{"open", "deepseek", "--browser", "launch"}, errs.BadInput, "stays open"},
		{"open an unknown site", []string{"open", "nosuchsite", "--browser-url", "ws://127.0.0.1:9/devtools/browser/x"}, errs.UnknownSite, "nosuchsite"},
		{"attaching to Ferry's browser when it does not run says so", []string{"tabs"}, errs.BrowserDisconnected, "not running"},
		{"reattach's launch options with an attached browser are refused", []string{"reattach", "--session", "x", "--browser-url", "ws://127.0.0.1:9/devtools/browser/x", "--headless"}, errs.BadInput, "--headless"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ferry(t, nil, append(tc.args, "--data-dir", dataDir, "--json")...)
			var e errorJSON
			if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
				t.Fatalf("stdout %q is not an error envelope: %v", r.stdout, err)
			}
			if r.code != exitOf(tc.code) || e.Error.Code != tc.code || !strings.Contains(e.Error.Message, tc.says) {
				t.Fatalf("exit %d, envelope %+v; want %s saying %q", r.code, e.Error, tc.code, tc.says)
			}
		})
	}
}

// TestHelpExitCodesIsTheCatalog checks the exit-code table against
// errs.Catalog: every code under its class's exit code, and nothing else.
func TestHelpExitCodesIsTheCatalog(t *testing.T) {
	t.Parallel()
	r := ferry(t, nil, "help", "exit-codes", "--json")
	if r.code != 0 {
		t.Fatalf("exit %d: %s", r.code, r.stderr)
	}
	var classes []cmddoc.ExitClass
	if err := json.Unmarshal([]byte(r.stdout), &classes); err != nil {
		t.Fatalf("stdout is not the JSON table: %v\n%s", err, r.stdout)
	}
	got := map[errs.Code]int{}
	for i, c := range classes {
		if c.Exit != i {
			t.Fatalf("row %d has exit %d: the table is not in exit-code order", i, c.Exit)
		}
		for _, code := range c.Codes {
			got[code] = c.Exit
		}
	}
	cat := errs.Catalog()
	if len(got) != len(cat) {
		t.Fatalf("the table has %d codes, the catalog %d", len(got), len(cat))
	}
	for _, s := range cat {
		if exit, ok := got[s.Code]; !ok || exit != errs.ExitCode(errs.New(s.Code, "x")) {
			t.Errorf("code %s is under exit %d (listed %v), want %d", s.Code, exit, ok, s.Class.ExitCode())
		}
	}
	if len(classes) != 10 || classes[2].Class != "bad input" || classes[8].Class != "cancelled" || classes[9].Class != "disk full" {
		t.Fatalf("classes %+v, want the ten from ok to disk full", classes)
	}

	text := ferry(t, nil, "help", "exit-codes")
	if text.code != 0 {
		t.Fatalf("exit %d", text.code)
	}
	for _, s := range cat {
		if !strings.Contains(text.stdout, string(s.Code)) {
			t.Errorf("the table lacks %s:\n%s", s.Code, text.stdout)
		}
	}
	if !strings.Contains(text.stdout, "4     routing failure") {
		t.Errorf("the table lacks the routing row:\n%s", text.stdout)
	}
}

// TestTabsAndOpenAttachToFerrysOwnBrowser runs tabs and open without any
// browser flag: they attach to the browser running on the data directory's
// profile, found through its DevToolsActivePort file.
func TestTabsAndOpenAttachToFerrysOwnBrowser(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dataDir := t.TempDir()
	paths, err := config.ResolvePaths(dataDir)
	if err != nil {
		t.Fatal(err)
	}
	b, err := browser.Launch(ctx, paths.ProfileDir(), launch.WithBinary(providertest.ChromiumBin), launch.Headless(), launch.WithArgs(srv.ChromiumFlags()...))
	if err != nil {
		t.Fatal(err)
	}
	defer func() {
		cctx, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = b.Close(cctx)
	}()

	r := ferry(t, nil, "open", "deepseek", "--data-dir", dataDir, "--json")
	if r.code != 0 {
		t.Fatalf("open: exit %d: %s %s", r.code, r.stdout, r.stderr)
	}
	var o openJSON
	if err := json.Unmarshal([]byte(r.stdout), &o); err != nil || o.ID == "" || o.Site != "deepseek" || o.URL != "https://chat.deepseek.com/" {
		t.Fatalf("open printed %s (%v)", r.stdout, err)
	}
	r = ferry(t, nil, "tabs", "--data-dir", dataDir, "--json")
	var tabs []tabJSON
	if err := json.Unmarshal([]byte(r.stdout), &tabs); err != nil || r.code != 0 {
		t.Fatalf("tabs: exit %d, %v: %s %s", r.code, err, r.stdout, r.stderr)
	}
	found := false
	for _, tb := range tabs {
		found = found || (tb.ID == o.ID && tb.Site == "deepseek")
	}
	if !found {
		t.Fatalf("tabs %+v lack the opened tab %s", tabs, o.ID)
	}
	// The browser Ferry attached to is still running after both commands.
	if _, err := b.Version(ctx); err != nil {
		t.Fatalf("the browser is gone after ferry detached: %v", err)
	}
}

// TestTabActionsAreCheckedAndNeedTheOwner covers `ferry tabs show|close|
// login ID` without a browser: a wrong shape is bad input, an action
// without a running owner says where it runs, and --browser-url is
// refused (the action is on the owner's browser).
func TestTabActionsAreCheckedAndNeedTheOwner(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	cases := []struct {
		name string
		args []string
		code errs.Code
		says string
	}{
		{"an action without a tab is bad input", []string{"tabs", "show"}, errs.BadInput, "show, close or login"},
		{"an unknown action is bad input", []string{"tabs", "raise", "T1"}, errs.BadInput, "show, close or login"},
		{"an action on a named browser is refused", []string{"tabs", "close", "T1", "--browser-url", "ws://127.0.0.1:9/devtools/browser/x"}, errs.BadInput, "--browser-url"},
		{"an action without a running owner says who keeps the browser", []string{"tabs", "show", "T1"}, errs.HubNotRunning, "long-lived browser"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ferry(t, nil, append(tc.args, "--data-dir", dataDir, "--json")...)
			var e errorJSON
			if err := json.Unmarshal([]byte(r.stdout), &e); err != nil {
				t.Fatalf("stdout %q is not an error envelope: %v", r.stdout, err)
			}
			if r.code != exitOf(tc.code) || e.Error.Code != tc.code || !strings.Contains(e.Error.Message, tc.says) {
				t.Fatalf("exit %d, envelope %+v; want %s saying %q", r.code, e.Error, tc.code, tc.says)
			}
		})
	}
}
