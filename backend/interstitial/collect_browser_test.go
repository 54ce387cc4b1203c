package interstitial

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// TestTheCollectorReadsRealPages runs the embedded collector in real
// headless Chromium over pages built like the sites' interstitials, and
// feeds its output to Detect: the JavaScript and the Go decision must agree
// on what a page shows.
func TestTheCollectorReadsRealPages(t *testing.T) {
	const bin = "/usr/bin/chromium"
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("this test needs Chromium at %s (apt-get install chromium): %v", bin, err)
	}
	l := launcher.New().Bin(bin).Headless(true).NoSandbox(true).Leakless(false).
		Set("disable-gpu").Set("disable-quic").Set("no-first-run").
		Set("disable-background-networking").Set("disable-component-update").Set("disable-sync")
	u, err := l.Launch()
	if err != nil {
		t.Fatalf("launch chromium: %v", err)
	}
	defer func() {
		l.Kill()
		l.Cleanup() // waits for the exit, then removes the temporary profile
	}()
	b := rod.New().ControlURL(u).Timeout(60 * time.Second)
	if err := b.Connect(); err != nil {
		t.Fatalf("connect chromium: %v", err)
	}
	defer func() { _ = b.Close() }()

	probe := Probe{
		Composer:      []string{`div#prompt-textarea[contenteditable="true"]`},
		LoggedIn:      []string{`[data-testid="accounts-profile-button"]`},
		LoggedOut:     []string{`a[href*="/auth/login"]`},
		ErrorText:     []string{`.text-token-text-error`},
		AssistantTurn: []string{`[data-message-author-role="assistant"]`},
	}
	chat := `<button data-testid="accounts-profile-button">Me</button>
		<div data-message-author-role="assistant"><div class="markdown">A 429 means Too many requests.</div></div>
		<form><div id="prompt-textarea" contenteditable="true"><p>Ask anything</p></div></form>
		<script src="data:text/javascript,//cdn-cgi/challenge-platform/h/b/orchestrate"></script>`
	cases := []struct {
		name   string
		html   string
		kind   Kind
		checks func(t *testing.T, s Snapshot)
	}{
		{"a Cloudflare challenge page is seen as one",
			`<title>Just a moment...</title><div id="challenge-running"></div><p>Verifying you are human. This may take a few seconds.</p>`,
			Cloudflare, func(t *testing.T, s Snapshot) {
				if s.ComposerPresent || s.Title != "Just a moment..." {
					t.Errorf("snapshot = %+v", s)
				}
			}},
		{"a chat page with the challenge script and an answer about 429 is clean",
			`<title>ChatGPT</title>` + chat,
			None, func(t *testing.T, s Snapshot) {
				if !s.ComposerPresent || !s.has(FlagChallengeScript) || !s.has(FlagLoggedIn) || s.LastAnswer != "A 429 means Too many requests." {
					t.Errorf("snapshot = %+v", s)
				}
			}},
		{"a visible rate-limit dialog with a time element is a rate limit",
			`<title>ChatGPT</title>` + chat + `<div role="dialog">Too many requests<p>You're making requests too quickly.</p><time datetime="2026-11-30T06:00:00Z">6 AM</time><button>Got it</button></div>`,
			RateLimit, func(t *testing.T, s Snapshot) {
				if len(s.Dialogs) != 1 || len(s.Times) != 1 || s.Times[0] != "2026-11-30T06:00:00Z" || s.Now.IsZero() {
					t.Errorf("snapshot = %+v", s)
				}
			}},
		{"a hidden dialog is not read",
			`<title>ChatGPT</title>` + chat + `<div role="dialog" style="display:none">Too many requests</div>`,
			None, func(t *testing.T, s Snapshot) {
				if len(s.Dialogs) != 0 {
					t.Errorf("hidden dialog collected: %q", s.Dialogs)
				}
			}},
		{"a cap banner without a role, above the composer, is a usage cap with its reset time",
			`<title>Claude</title>` + chat + `<div class="banner"><span>You’ve hit your limit for Claude messages. Limits will reset at </span><time datetime="2026-11-30T06:00:00Z">6:00 AM</time></div>`,
			UsageCap, func(t *testing.T, s Snapshot) {
				r := Detect(s)
				if !r.ResetAt.Equal(time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)) || r.Evidence["signal"] != "banner" {
					t.Errorf("verdict = %+v", r)
				}
			}},
		{"the thread's turns stay out of the text outside them",
			`<title>ChatGPT</title>` + chat + `<div data-message-author-role="assistant">You’ve hit your limit for Claude messages. Limits will reset at 6 AM.</div>`,
			None, func(t *testing.T, s Snapshot) {
				if strings.Contains(s.Outside, "hit your limit") || strings.Contains(s.Outside, "429") || !strings.Contains(s.Outside, "Me") {
					t.Errorf("outside = %q", s.Outside)
				}
			}},
		{"a landing page with Sign in and no composer is a login wall",
			`<title>Grok</title><header><a href="/sign-in">Sign in</a><a href="/sign-up">Sign up</a></header><main><h1>Grok</h1></main>`,
			LoginWall, func(t *testing.T, s Snapshot) {
				if !s.has(FlagLoginControl) || s.ComposerPresent {
					t.Errorf("snapshot = %+v", s)
				}
			}},
		{"an error text in the thread is read",
			`<title>ChatGPT</title>` + chat + `<div class="text-token-text-error">You’ve reached the maximum length for this conversation, but you can keep talking by starting a new chat.</div>`,
			ConversationTooLong, nil},
	}
	js := "() => " + Script(probe)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
			if err != nil {
				t.Fatalf("open page: %v", err)
			}
			defer func() { _ = p.Close() }()
			if err := p.SetDocumentContent("<!doctype html><html><head></head><body>" + c.html + "</body></html>"); err != nil {
				t.Fatalf("set content: %v", err)
			}
			res, err := p.Eval(js)
			if err != nil {
				t.Fatalf("run collector: %v", err)
			}
			s, err := ParseSnapshot(res.Value.Str())
			if err != nil {
				t.Fatal(err)
			}
			if got := Detect(s); got.Kind != c.kind {
				t.Fatalf("Detect = %+v from %+v", got, s)
			}
			if c.checks != nil {
				c.checks(t, s)
			}
		})
	}
}
