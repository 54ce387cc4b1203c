package interstitial

import (
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// now is 20:00 in UTC-5 (the page's local time is 15:00).
var now = time.Date(2026, 11, 29, 20, 0, 0, 0, time.UTC)

func chatPage() Snapshot {
	return Snapshot{
		URL: "https://chatgpt.com/c/6974e0a3", Title: "ChatGPT",
		Body:            "ChatGPT\nNew chat\nSearch chats\nHow do tides work?\nTides are caused by the Moon.",
		BodyLength:      9000,
		Flags:           []string{FlagLoggedIn, FlagChallengeScript},
		ComposerPresent: true, Now: now, TZOffsetMinutes: 300,
	}
}

func with(s Snapshot, edit func(*Snapshot)) Snapshot { edit(&s); return s }

func TestDetectRecognisesEverySignature(t *testing.T) {
	cases := []struct {
		name     string
		snap     Snapshot
		kind     Kind
		code     errs.Code
		action   string
		terminal bool
	}{
		{"a Cloudflare 'Just a moment' page without a composer is a challenge",
			Snapshot{URL: "https://chatgpt.com/", Title: "Just a moment...", Body: "chatgpt.com\nVerify you are human by completing the action below.\nchatgpt.com needs to review the security of your connection before proceeding.", Flags: []string{FlagChallengeIframe, FlagChallengeScript}},
			Cloudflare, errs.CloudflareChallenge, "", true},
		{"a Cloudflare 'Attention Required' page is a challenge",
			Snapshot{URL: "https://claude.ai/", Title: "Attention Required! | Cloudflare", Body: "Sorry, you have been blocked"},
			Cloudflare, errs.CloudflareChallenge, "", true},
		{"a challenge form without a telling title is a challenge",
			Snapshot{URL: "https://grok.com/", Title: "grok.com", Flags: []string{FlagChallengeForm}},
			Cloudflare, errs.CloudflareChallenge, "", true},
		{"a short page asking to verify you are human is a challenge",
			Snapshot{URL: "https://chatgpt.com/", Title: "chatgpt.com", Body: "Verifying you are human. This may take a few seconds."},
			Cloudflare, errs.CloudflareChallenge, "", true},
		{"ChatGPT's too-many-requests modal is a rate limit with Got it",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"Too many requests\nYou're making requests too quickly. We've temporarily limited access to your conversations to protect our systems.\nGot it"}
			}),
			RateLimit, errs.RateLimited, "Got it", true},
		{"ChatGPT's throttle modal seen with six chats at once is a rate limit by its own words",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"We’ve temporarily limited access to your conversations to protect our systems. Please wait a few minutes before trying again.\nGot it"}
			}),
			RateLimit, errs.RateLimited, "Got it", true},
		{"DeepSeek's 'sending messages too frequently' alert is a rate limit",
			with(chatPage(), func(s *Snapshot) {
				s.URL = "https://chat.deepseek.com/a/chat/s/5f0c2d7e"
				s.ErrorTexts = []string{"You are sending messages too frequently. Please wait a moment before sending again."}
			}),
			RateLimit, errs.RateLimited, "Got it", true},
		{"a toast saying requests are too frequent is a rate limit",
			with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"Requests are too frequent, please try again later."} }),
			RateLimit, errs.RateLimited, "Got it", true},
		{"conversation too long with a straight apostrophe asks for a new chat",
			with(chatPage(), func(s *Snapshot) {
				s.ErrorTexts = []string{"You've reached the maximum length for this conversation, but you can keep talking by starting a new chat."}
			}),
			ConversationTooLong, errs.ConversationTooLong, "Start new chat", true},
		{"conversation too long with a curly apostrophe asks for a new chat",
			with(chatPage(), func(s *Snapshot) {
				s.ErrorTexts = []string{"You’ve reached the maximum length for this conversation, but you can keep talking by starting a new chat."}
			}),
			ConversationTooLong, errs.ConversationTooLong, "Start new chat", true},
		{"Claude's maximum length notice asks for a new chat",
			Snapshot{URL: "https://claude.ai/chat/1", ComposerPresent: true, Dialogs: []string{"Claude hit the maximum length for this conversation. Please start a new conversation to continue chatting with Claude."}},
			ConversationTooLong, errs.ConversationTooLong, "Start new chat", true},
		{"a plan limit notice is a usage cap",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"You’ve hit the Free plan limit for GPT-5. Responses will use another model until your limit resets after 8:53 PM.\nNew chat\nUpgrade"}
			}),
			UsageCap, errs.UsageCap, "", true},
		{"Claude's cap banner above a blocked composer (no role) is a usage cap",
			Snapshot{URL: "https://claude.ai/new", ComposerPresent: true, BodyLength: 9000, Now: now,
				Outside: "New chat\nChats\nYou’ve hit your limit for Claude messages. Limits will reset at\n11:00 PM\nSim User"},
			UsageCap, errs.UsageCap, "", true},
		{"Claude's cap notice in an alert is a usage cap",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"You’ve hit your limit for Claude messages. Limits will reset at 11:00 PM."}
			}),
			UsageCap, errs.UsageCap, "", true},
		{"AI Studio's exceeded quota is a usage cap",
			with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"You exceeded your current quota. Try again at 17:30"} }),
			UsageCap, errs.UsageCap, "", true},
		{"AI Studio's internal error is a generic error",
			with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"An internal error has occurred."} }),
			GenericError, errs.GenerationError, "", true},
		{"a turn's network error alert is a generic error",
			with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"Network error. Please try again."} }),
			GenericError, errs.GenerationError, "", true},
		{"suspicious activity is a hard stop",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"Suspicious activity detected\nWe have detected suspicious activity on your account."}
			}),
			Suspicious, errs.AccountBlocked, "", true},
		{"an expired session needs a login",
			with(chatPage(), func(s *Snapshot) {
				s.Dialogs = []string{"Your session has expired. Please log in again to continue using the app."}
			}),
			SessionExpired, errs.LoginRequired, "", true},
		{"the OpenAI login page is a login wall",
			Snapshot{URL: "https://auth.openai.com/log-in?state=abc", Title: "Log in - OpenAI", Body: "Welcome back\nEmail address\nContinue"},
			LoginWall, errs.LoginRequired, "", true},
		{"Google's account chooser is a login wall",
			Snapshot{URL: "https://accounts.google.com/v3/signin/identifier?continue=https://gemini.google.com", Title: "Sign in - Google Accounts"},
			LoginWall, errs.LoginRequired, "", true},
		{"DeepSeek's sign-in path is a login wall",
			Snapshot{URL: "https://chat.deepseek.com/sign_in", Title: "DeepSeek"},
			LoginWall, errs.LoginRequired, "", true},
		{"ChatGPT answering logged out (composer and Log in button) is a login wall",
			Snapshot{URL: "https://chatgpt.com/", Title: "ChatGPT", Body: "Log in\nSign up for free\nWhat can I help with?", ComposerPresent: true, Flags: []string{FlagLoggedOut}},
			LoginWall, errs.LoginRequired, "", true},
		{"Grok's logged-out landing page (Sign in, no composer) is a login wall",
			Snapshot{URL: "https://grok.com/", Title: "Grok", Body: "Sign in\nSign up\nGrok\nUnderstand the universe.", Flags: []string{FlagLoginControl}},
			LoginWall, errs.LoginRequired, "", true},
		{"a caller that knows the site's login page is believed",
			Snapshot{URL: "https://claude.ai/login", OnLoginPage: true},
			LoginWall, errs.LoginRequired, "", true},
		{"Google's consent page must be answered first",
			Snapshot{URL: "https://consent.google.com/ml?continue=https://gemini.google.com/&gl=DE", Title: "Before you continue to Google"},
			Consent, errs.ConsentRequired, "", true},
		{"Google's consent dialog must be answered first",
			Snapshot{URL: "https://gemini.google.com/", Dialogs: []string{"Before you continue to Google\nWe use cookies and data to…\nReject all\nAccept all"}},
			Consent, errs.ConsentRequired, "", true},
		{"ChatGPT's generic error ends the turn",
			with(chatPage(), func(s *Snapshot) {
				s.ErrorTexts = []string{"Something went wrong. If this issue persists please contact us through our help center at help.openai.com."}
				s.Flags = append(s.Flags, FlagRegenerateError)
			}),
			GenericError, errs.GenerationError, "", true},
		{"a message delivery timeout ends the turn",
			with(chatPage(), func(s *Snapshot) { s.ErrorTexts = []string{"Message delivery timed out. Please try again."} }),
			GenericError, errs.GenerationError, "", true},
		{"the regenerate-after-error button alone ends the turn",
			with(chatPage(), func(s *Snapshot) { s.Flags = append(s.Flags, FlagRegenerateError) }),
			GenericError, errs.GenerationError, "", true},
		{"Gemini's apology rendered as the answer ends the turn",
			Snapshot{URL: "https://gemini.google.com/app/1", ComposerPresent: true, LastAnswer: "Sorry, something went wrong. Please try your request again."},
			GenericError, errs.GenerationError, "", true},
		{"Connection interrupted is transient, not final",
			with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"Connection interrupted. Waiting for the complete answer…"} }),
			Transient, "", "", false},
		{"DeepSeek's busy server is a failed turn with Retry",
			Snapshot{URL: "https://chat.deepseek.com/a/chat/s/1", ComposerPresent: true, ErrorTexts: []string{"The server is busy. Please try again later."}},
			ServerBusy, errs.GenerationError, "Retry", true},
		{"Gemini's unusual-traffic page is a human check",
			Snapshot{URL: "https://www.google.com/sorry/index?continue=https://gemini.google.com/", Title: "https://gemini.google.com/", Body: "Our systems have detected unusual traffic from your computer network."},
			HumanCheck, errs.CloudflareChallenge, "", true},
		{"Gemini's unusual-traffic notice is a human check",
			Snapshot{URL: "https://gemini.google.com/app", ComposerPresent: true, Dialogs: []string{"We detected unusual traffic. Please verify you're not a robot."}},
			HumanCheck, errs.CloudflareChallenge, "", true},
		{"Grok's heavy usage notice is a rate limit",
			Snapshot{URL: "https://grok.com/chat/1", ComposerPresent: true, Dialogs: []string{"Grok is under heavy usage right now. Please try again soon."}},
			HeavyUsage, errs.RateLimited, "", true},
		{"Grok's region refusal stops",
			Snapshot{URL: "https://grok.com/", Body: "This service is not available in your region."},
			RegionUnavailable, errs.AccountBlocked, "", true},
		{"Claude's tool use limit offers Continue and is not an error",
			Snapshot{URL: "https://claude.ai/chat/1", ComposerPresent: true, ErrorTexts: []string{"This response reached its tool use limit."}},
			ToolUseLimit, "", "Continue", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Detect(c.snap)
			if r.Kind != c.kind || r.Code != c.code || r.Action != c.action || r.Terminal != c.terminal {
				t.Fatalf("Detect = %+v\nwant kind %s code %q action %q terminal %v", r, c.kind, c.code, c.action, c.terminal)
			}
			if r.Blocking != (c.code != "") {
				t.Fatalf("blocking = %v for code %q", r.Blocking, c.code)
			}
			if r.Evidence["signal"] == "" {
				t.Fatalf("no evidence: %+v", r)
			}
			err := r.Err()
			if c.code == "" {
				if err != nil {
					t.Fatalf("Err() = %v for a non-error kind", err)
				}
				return
			}
			if !errs.Has(err, c.code) || errs.From(err).Evidence["interstitial"] != string(c.kind) {
				t.Fatalf("Err() = %v", err)
			}
		})
	}
}

func TestDetectIgnoresTheTraps(t *testing.T) {
	cases := []struct {
		name string
		snap Snapshot
	}{
		{"a normal page with the challenge-platform script is no challenge", chatPage()},
		{"a 'Just a moment' title while the composer is up is no challenge",
			with(chatPage(), func(s *Snapshot) { s.Title = "Just a moment..."; s.Flags = append(s.Flags, FlagChallengeIframe) })},
		{"an answer about HTTP 429 Too many requests is no rate limit",
			with(chatPage(), func(s *Snapshot) {
				s.Body += "\nA 429 Too Many Requests response means you are making requests too quickly."
				s.LastAnswer = "A 429 Too Many Requests response means you are making requests too quickly."
			})},
		{"an answer quoting the usage-limit wording is no usage cap",
			with(chatPage(), func(s *Snapshot) { s.LastAnswer = "When you hit the usage limit, your limit resets after 8 PM." })},
		{"an answer mentioning suspicious activity is no account flag",
			with(chatPage(), func(s *Snapshot) { s.Body += "\nBanks flag suspicious activity detected on cards." })},
		{"an answer asking to verify your email is no human check",
			Snapshot{URL: "https://gemini.google.com/app/1", ComposerPresent: true, Body: "Please verify your email, then verify you are human on the form.", LastAnswer: "Please verify your email."}},
		{"a long logged-out article page is no challenge",
			Snapshot{URL: "https://chatgpt.com/", Title: "Docs", Body: strings.Repeat("Cloudflare is checking your browser in this tutorial. ", 60), BodyLength: 3300, Flags: []string{FlagLoggedIn}}},
		{"an anonymous session's Sign in control beside a composer is no login wall by itself",
			Snapshot{URL: "https://grok.com/", ComposerPresent: true, Flags: []string{FlagLoginControl}}},
		{"a Log in link next to the account menu is no login wall",
			with(chatPage(), func(s *Snapshot) { s.Flags = append(s.Flags, FlagLoggedOut) })},
		{"a long answer that begins with 'Sorry, something went wrong' is no error",
			with(chatPage(), func(s *Snapshot) {
				s.LastAnswer = "Sorry, something went wrong in your code: " + strings.Repeat("the loop never ends. ", 20)
			})},
		{"a sidebar chat titled after usage limits is no usage cap",
			with(chatPage(), func(s *Snapshot) { s.Outside = "Chats\nRate limit vs usage limit\nWhy limits reset\nSim User" })},
		{"a /login path on another site's docs is not confused with a wall when logged in", Snapshot{URL: "https://chatgpt.com/c/1", ComposerPresent: true, Flags: []string{FlagLoggedIn}, Body: "How do I build a /login page?"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if r := Detect(c.snap); r.Found() {
				t.Fatalf("Detect = %+v, want nothing", r)
			}
		})
	}
}

func TestUsageCapResetTimesAreRead(t *testing.T) {
	notice := func(text string, times ...string) Snapshot {
		return with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{text}; s.Times = times })
	}
	cases := []struct {
		name string
		snap Snapshot
		want time.Time
	}{
		{"a 12-hour clock time later today in the page's zone",
			notice("You’ve hit the Free plan limit for GPT-5. Your limit resets after 8:53 PM."),
			time.Date(2026, 11, 30, 1, 53, 0, 0, time.UTC)},
		{"a clock time already past today means tomorrow",
			notice("You've reached your message limit. Your free messages return at 9:15 AM."),
			time.Date(2026, 11, 30, 14, 15, 0, 0, time.UTC)},
		{"a 24-hour clock time",
			notice("Usage limit reached. Limit resets at 17:30."),
			time.Date(2026, 11, 29, 22, 30, 0, 0, time.UTC)},
		{"an explicit tomorrow",
			notice("You are out of messages. Try again tomorrow at 7 AM."),
			time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)},
		{"a relative time",
			notice("You've reached the message limit. Try again in 3 hours."),
			now.Add(3 * time.Hour)},
		{"Claude's 'until' wording without minutes",
			notice("You are out of free messages until 5 PM"),
			time.Date(2026, 11, 29, 22, 0, 0, 0, time.UTC)},
		{"a banner's clock time on the next line, in the page's zone",
			with(chatPage(), func(s *Snapshot) {
				s.Outside = "Chats\nYou’ve hit your limit for Claude messages. Limits will reset at\n8:53 PM\nSim User"
			}),
			time.Date(2026, 11, 30, 1, 53, 0, 0, time.UTC)},
		{"a banner's time element outside the thread",
			with(chatPage(), func(s *Snapshot) {
				s.Outside = "You’ve hit your limit for Claude messages. Limits will reset at\n8:53 PM"
				s.OutsideTimes = []string{"2026-11-30T03:00:00Z"}
			}),
			time.Date(2026, 11, 30, 3, 0, 0, 0, time.UTC)},
		{"a time element wins over the text",
			notice("Your limit resets after 8:53 PM.", "2026-11-30T06:00:00Z"),
			time.Date(2026, 11, 30, 6, 0, 0, 0, time.UTC)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := Detect(c.snap)
			if r.Kind != UsageCap || !r.ResetAt.Equal(c.want) {
				t.Fatalf("got %s reset %v, want %v", r.Kind, r.ResetAt, c.want)
			}
			e := errs.From(r.Err())
			if e.Evidence["resets_at"] != c.want.Format(time.RFC3339) || !strings.Contains(e.RetryHint, "resets at") {
				t.Fatalf("envelope = %+v", e)
			}
		})
	}
	if r := Detect(notice("You have reached the usage limit.")); r.Kind != UsageCap || !r.ResetAt.IsZero() {
		t.Fatalf("no time given must leave ResetAt zero: %+v", r)
	}
}

func TestRateLimitCooldownIsConfigurable(t *testing.T) {
	s := with(chatPage(), func(s *Snapshot) { s.Dialogs = []string{"Too many requests"} })
	if r := Detect(s); r.Cooldown != DefaultCooldown {
		t.Fatalf("default cooldown = %v", r.Cooldown)
	}
	if r := Detect(s, WithCooldown(42*time.Second)); r.Cooldown != 42*time.Second {
		t.Fatalf("cooldown = %v", r.Cooldown)
	}
}

func TestEvidenceNeverCarriesTheURLQuery(t *testing.T) {
	r := Detect(Snapshot{URL: "https://auth.openai.com/log-in?state=s3cr3t&code=abc#frag"})
	if r.Evidence["url"] != "https://auth.openai.com/log-in" {
		t.Fatalf("url evidence = %q", r.Evidence["url"])
	}
	if b := errs.From(r.Err()).JSON(); strings.Contains(string(b), "s3cr3t") {
		t.Fatalf("secret leaked: %s", b)
	}
}

func TestTheCollectorScriptAndItsOutputFitTogether(t *testing.T) {
	js := Script(Probe{Composer: []string{`div#prompt-textarea[contenteditable="true"]`}, LoggedIn: []string{`[data-testid="accounts-profile-button"]`}})
	for _, want := range []string{`"composer":["div#prompt-textarea[contenteditable=\"true\"]"]`, "composerPresent", "tzOffsetMinutes", "challenge-platform"} {
		if !strings.Contains(js, want) {
			t.Errorf("script lacks %s", want)
		}
	}
	if !strings.HasPrefix(js, "(") || !strings.HasSuffix(js, ")") {
		t.Fatalf("script is not a call expression")
	}
	s, err := ParseSnapshot(`{"url":"https://chatgpt.com/","title":"Just a moment...","body":"","bodyLength":0,"flags":["cf_challenge_running"],"dialogs":[],"errorTexts":[],"lastAnswer":"","composerPresent":false,"times":[],"now":"2026-11-29T20:00:00.000Z","tzOffsetMinutes":300}`)
	if err != nil || !s.Now.Equal(now) || Detect(s).Kind != Cloudflare {
		t.Fatalf("snapshot = %+v, %v", s, err)
	}
	if _, err := ParseSnapshot("not json"); !errs.Has(err, errs.Internal) {
		t.Fatalf("err = %v", err)
	}
}
