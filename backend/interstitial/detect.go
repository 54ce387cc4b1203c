package interstitial

import (
	"net/url"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Kind names what stands in the way.
type Kind string

// The kinds of interstitial, roughly from hardest stop to softest.
const (
	None                Kind = "none"
	Cloudflare          Kind = "cloudflare"            // a Cloudflare challenge page
	HumanCheck          Kind = "human_check"           // Google's "unusual traffic" check
	Suspicious          Kind = "suspicious_activity"   // the account is flagged: hard stop
	RegionUnavailable   Kind = "region_unavailable"    // the site refuses this region
	Consent             Kind = "consent"               // a consent page must be answered first
	LoginWall           Kind = "login_wall"            // logged out, or on a login page
	SessionExpired      Kind = "session_expired"       // "Your session has expired"
	ConversationTooLong Kind = "conversation_too_long" // start a new chat
	RateLimit           Kind = "rate_limit"            // "Too many requests": cool down, retry once
	HeavyUsage          Kind = "heavy_usage"           // Grok under heavy usage
	UsageCap            Kind = "usage_cap"             // plan limit, with a reset time when shown
	ServerBusy          Kind = "server_busy"           // DeepSeek "The server is busy"
	GenericError        Kind = "generic_error"         // "Something went wrong": the turn failed
	ToolUseLimit        Kind = "tool_use_limit"        // Claude paused: "Continue" resumes
	Transient           Kind = "transient"             // "Connection interrupted": wait, not final
)

// DefaultCooldown is the wait after a rate-limit modal before the one retry.
const DefaultCooldown = 300 * time.Second

// Result is the detector's verdict.
type Result struct {
	Kind Kind `json:"kind"`
	// Code is the envelope code for the user; "" for kinds that are not
	// errors (None, ToolUseLimit, Transient).
	Code    errs.Code `json:"code,omitempty"`
	Message string    `json:"message,omitempty"`
	// Action is the label of the button a policy may click ("Got it",
	// "Start new chat", "Continue"); "" when none should be clicked.
	Action string `json:"action,omitempty"`
	// Cooldown is how long to wait before the one retry (rate limits).
	Cooldown time.Duration `json:"cooldown,omitempty"`
	// ResetAt is when a usage cap resets, when the page said (UTC).
	ResetAt time.Time `json:"resetAt,omitzero"`
	// Terminal is true when the current turn cannot finish by waiting.
	Terminal bool `json:"terminal"`
	// Blocking is true when nothing may be typed into the page.
	Blocking bool              `json:"blocking"`
	Evidence map[string]string `json:"evidence,omitempty"`
}

// Found reports whether anything stands in the way.
func (r Result) Found() bool { return r.Kind != None && r.Kind != "" }

// Err returns the envelope for the verdict, or nil when it is not an error.
// Evidence and reset time are carried over; secrets never are (URLs lose
// their query).
func (r Result) Err() error {
	if r.Code == "" {
		return nil
	}
	e := errs.New(r.Code, "%s", r.Message).WithEvidence("interstitial", string(r.Kind))
	for k, v := range r.Evidence {
		e.WithEvidence(k, v)
	}
	if !r.ResetAt.IsZero() {
		e.WithEvidence("resets_at", r.ResetAt.Format(time.RFC3339))
		e.WithHint("the limit resets at %s: retry after that, or pick another model or site", r.ResetAt.Format(time.RFC3339))
	}
	if r.Kind == RegionUnavailable {
		e.WithHint("the site is not offered where this browser connects from: use another site")
	}
	if r.Kind == ServerBusy {
		e.WithHint("the site is overloaded: retry in a minute or two")
	}
	return e
}

// Option adjusts Detect.
type Option func(*options)

type options struct{ cooldown time.Duration }

// WithCooldown sets the wait suggested after a rate-limit modal.
func WithCooldown(d time.Duration) Option { return func(o *options) { o.cooldown = d } }

var (
	reJustAMoment = regexp.MustCompile(`(?i)just a moment`)
	reAttention   = regexp.MustCompile(`(?i)attention required`)
	reCloudflare  = regexp.MustCompile(`(?i)cloudflare`)
	reVerifyHuman = regexp.MustCompile(`(?i)verify(ing)? you are (a )?human|checking your browser|needs to review the security of your connection`)
	reUnusual     = regexp.MustCompile(`(?i)unusual traffic|not a robot`)
	reVerifyYou   = regexp.MustCompile(`(?i)verify you`)
	reSuspicious  = regexp.MustCompile(`(?i)suspicious activity`)
	reRegion      = regexp.MustCompile(`(?i)not available in your (region|country)`)
	reConsent     = regexp.MustCompile(`(?i)before you continue to (google|youtube)`)
	reSession     = regexp.MustCompile(`(?i)your session has expired`)
	reTooLong     = regexp.MustCompile(`(?i)(reached|hit) the maximum (length|conversation length) for this conversation|maximum length for this conversation`)
	reTooMany     = regexp.MustCompile(`(?i)too many requests|making requests too quickly|sending messages too (?:frequently|fast)|requests are too frequent|temporarily limited access to your conversations`)
	reCap         = regexp.MustCompile(`(?i)usage limit|message limit|rate limit|hit the [^.]{0,40}limit|you(?:'|’| ha)ve (?:reached|hit)|out of (?:free )?messages|limits? (?:resets?|will reset)|your free messages return at|exceeded your (?:current )?quota`)
	// reCapBanner is the stricter wording of a usage cap that a site shows
	// outside any dialog or alert (Claude's "You’ve hit your limit for
	// Claude messages", above a blocked composer): whole sentences, so that
	// a chat title in the sidebar does not count.
	reCapBanner = regexp.MustCompile(`(?i)you(?:'|’| ha)ve (?:hit|reached) (?:your|the)\b[^.\n]{0,60}\blimit\b|limits? (?:will )?resets? (?:at|after|in|on)\b|your free messages return at`)
	reGeneric   = regexp.MustCompile(`(?i)something went wrong|a network error occurred|message delivery timed out|an error occurred while|an internal error has occurred|network error\. please try again`)
	reTransient = regexp.MustCompile(`(?i)connection interrupted|waiting for the complete answer`)
	// Google's account pages serve several sites (Gemini, AI Studio), so
	// they are the detector's own signs, not one site's rules.
	loginHosts      = []string{"accounts.google.com"}
	loginPathPrefix = []string{"/sign_in", "/auth/login", "/login"}
)

// shortBody is the longest body a full-page interstitial has; longer pages
// are real pages that may mention the same words.
const shortBody = 2000

// Detect decides what, if anything, stands between Ferry and the answer.
//
// Page text is trusted only where an interstitial puts it: in dialogs,
// alerts, toasts and the site's error elements, or in the body of a short
// page without a composer. Text inside an answer never counts (a user may
// well ask about "429 Too many requests"), except where a site's Answer rule
// says the site renders its error message as the whole answer (Gemini).
// Besides its own checks, Detect tries the rules the sites registered (see
// Rule for where each is tried).
func Detect(s Snapshot, opts ...Option) Result {
	r := detect(s, opts...)
	// Never type into a page that shows an error notice: the policy for
	// the kind (cool down, new chat, ask the user) comes first.
	r.Blocking = r.Code != ""
	return r
}

func detect(s Snapshot, opts ...Option) Result {
	o := options{cooldown: DefaultCooldown}
	for _, fn := range opts {
		fn(&o)
	}
	notices := append(append([]string(nil), s.Dialogs...), s.ErrorTexts...)
	page := ""
	n := s.BodyLength
	if n == 0 {
		n = len(s.Body)
	}
	if !s.ComposerPresent && n <= shortBody {
		page = s.Body
	}
	ev := func(signal, text string) map[string]string {
		m := map[string]string{"signal": signal}
		if text != "" {
			m["text"] = clip(text, 200)
		}
		if u := redact(s.URL); u != "" {
			m["url"] = u
		}
		return m
	}
	find := func(re *regexp.Regexp) (string, string, bool) {
		for _, t := range notices {
			if re.MatchString(t) {
				return "notice", t, true
			}
		}
		if page != "" && re.MatchString(page) {
			return "page", page, true
		}
		return "", "", false
	}

	verdict := func(r Rule, evidence map[string]string) Result {
		v := r.Verdict
		v.Evidence, v.Cooldown = evidence, 0
		if v.Code == errs.RateLimited {
			v.Cooldown = o.cooldown
		}
		return v
	}
	// slot runs the checks of one kind: the sites' address rules, the
	// detector's own checks, then the sites' text rules.
	slot := func(k Kind, own func() (Result, bool)) (Result, bool) {
		address, text := rulesOf(k)
		for _, r := range address {
			if r.atAddress(s.URL) {
				return verdict(r, ev("url", "")), true
			}
		}
		if own != nil {
			if r, ok := own(); ok {
				return r, true
			}
		}
		for _, r := range text {
			if r.Notice != nil {
				if sig, t, ok := find(r.Notice); ok {
					return verdict(r, ev(sig, t)), true
				}
			}
			if r.Answer != nil && len(s.LastAnswer) < 300 && r.Answer.MatchString(strings.TrimSpace(s.LastAnswer)) {
				return verdict(r, ev("answer", s.LastAnswer)), true
			}
		}
		return Result{}, false
	}
	// on turns a notice pattern into a check that answers r with evidence.
	on := func(re *regexp.Regexp, r Result) func() (Result, bool) {
		return func() (Result, bool) {
			sig, t, ok := find(re)
			if !ok {
				return Result{}, false
			}
			r.Evidence = ev(sig, t)
			return r, true
		}
	}
	// The kinds from hardest stop to softest: the first check that matches
	// wins. HeavyUsage, ServerBusy and ToolUseLimit have only site rules.
	steps := []struct {
		kind Kind
		own  func() (Result, bool)
	}{
		{Cloudflare, func() (Result, bool) { return cloudflare(s, page, ev) }},
		{HumanCheck, func() (Result, bool) {
			if host(s.URL) == "www.google.com" && strings.HasPrefix(path(s.URL), "/sorry") {
				return humanCheck(ev("url", "")), true
			}
			if sig, t, ok := find(reUnusual); ok {
				return humanCheck(ev(sig, t)), true
			}
			if page != "" && reVerifyYou.MatchString(page) {
				return humanCheck(ev("page", page)), true
			}
			return Result{}, false
		}},
		{Suspicious, on(reSuspicious, Result{Kind: Suspicious, Code: errs.AccountBlocked, Terminal: true,
			Message: "the site reports suspicious activity on the account"})},
		{RegionUnavailable, on(reRegion, Result{Kind: RegionUnavailable, Code: errs.AccountBlocked, Terminal: true,
			Message: "the site says it is not available in this region"})},
		{Consent, func() (Result, bool) {
			r := Result{Kind: Consent, Code: errs.ConsentRequired, Terminal: true,
				Message: "Google wants an answer on its consent page first"}
			if host(s.URL) == "consent.google.com" {
				r.Evidence = ev("url", "")
				return r, true
			}
			return on(reConsent, r)()
		}},
		{SessionExpired, on(reSession, Result{Kind: SessionExpired, Code: errs.LoginRequired, Terminal: true,
			Message: "the site says the session expired: log in again"})},
		{LoginWall, func() (Result, bool) { return loginWall(s, ev) }},
		{ConversationTooLong, on(reTooLong, Result{Kind: ConversationTooLong, Code: errs.ConversationTooLong, Action: "Start new chat", Terminal: true,
			Message: "the conversation reached its maximum length"})},
		{RateLimit, on(reTooMany, Result{Kind: RateLimit, Code: errs.RateLimited, Action: "Got it", Cooldown: o.cooldown, Terminal: true,
			Message: "the site says there are too many requests"})},
		{HeavyUsage, nil},
		{UsageCap, func() (Result, bool) {
			sig, t, ok := find(reCap)
			times := s
			if !ok && s.Outside != "" {
				// A banner without a role (Claude's, over a blocked
				// composer): its time elements are outside the notices.
				if m := reCapBanner.FindStringIndex(s.Outside); m != nil {
					sig, t, ok = "banner", bannerAround(s.Outside, m), true
					times.Times = s.OutsideTimes
				}
			}
			if !ok {
				return Result{}, false
			}
			r := Result{Kind: UsageCap, Code: errs.UsageCap, Terminal: true,
				Message: "the plan's usage limit is reached", Evidence: ev(sig, t)}
			if at, ok := resetTime(times, t); ok {
				r.ResetAt = at
			}
			return r, true
		}},
		{ServerBusy, nil},
		{ToolUseLimit, nil},
		{GenericError, func() (Result, bool) {
			r := Result{Kind: GenericError, Code: errs.GenerationError, Terminal: true,
				Message: "the site reported an error for this turn"}
			if r, ok := on(reGeneric, r)(); ok {
				return r, true
			}
			if s.has(FlagRegenerateError) {
				r.Evidence = ev("flag:"+FlagRegenerateError, "")
				return r, true
			}
			return Result{}, false
		}},
		{Transient, on(reTransient, Result{Kind: Transient, Message: "the site reports a passing interruption"})},
	}
	for _, st := range steps {
		if r, ok := slot(st.kind, st.own); ok {
			return r
		}
	}
	return Result{Kind: None}
}

// cloudflare reports a challenge only on positive evidence and no composer:
// the challenge-platform script alone also loads on normal pages.
func cloudflare(s Snapshot, page string, ev func(string, string) map[string]string) (Result, bool) {
	if s.ComposerPresent {
		return Result{}, false
	}
	signal, text := "", ""
	switch {
	case reJustAMoment.MatchString(s.Title):
		signal, text = "title", s.Title
	case reAttention.MatchString(s.Title) && (reCloudflare.MatchString(s.Title) || reCloudflare.MatchString(s.Body)):
		signal, text = "title", s.Title
	case s.has(FlagChallengeForm):
		signal = "flag:" + FlagChallengeForm
	case s.has(FlagChallengeRunning):
		signal = "flag:" + FlagChallengeRunning
	case s.has(FlagChallengeClass):
		signal = "flag:" + FlagChallengeClass
	case s.has(FlagChallengeIframe):
		signal = "flag:" + FlagChallengeIframe
	case page != "" && reVerifyHuman.MatchString(page):
		signal, text = "page", page
	default:
		return Result{}, false
	}
	return Result{Kind: Cloudflare, Code: errs.CloudflareChallenge, Terminal: true,
		Message: "a Cloudflare check stands in front of the site", Evidence: ev(signal, text)}, true
}

// bannerAround returns the lines of text around the match m of a banner
// pattern: the notice's own words, not the whole page.
func bannerAround(text string, m []int) string {
	start := strings.LastIndexByte(text[:m[0]], '\n') + 1
	end := len(text)
	if i := strings.IndexByte(text[m[1]:], '\n'); i >= 0 {
		end = m[1] + i
		// The reset time often sits on the next line.
		if j := strings.IndexByte(text[end+1:], '\n'); j >= 0 {
			end = end + 1 + j
		} else {
			end = len(text)
		}
	}
	return text[start:end]
}

func humanCheck(evidence map[string]string) Result {
	return Result{Kind: HumanCheck, Code: errs.CloudflareChallenge, Terminal: true,
		Message: "the site wants to check that a human is there (unusual traffic)", Evidence: evidence}
}

// loginWall: a login page, a logged-out marker without a logged-in one, or
// a "Sign in" control on a page without a composer.
// A site that answers logged-out users (ChatGPT, Gemini) is still a wall for
// a user who expects their account.
func loginWall(s Snapshot, ev func(string, string) map[string]string) (Result, bool) {
	h, p := host(s.URL), path(s.URL)
	onLogin := s.OnLoginPage
	for _, lh := range loginHosts {
		onLogin = onLogin || h == lh
	}
	for _, lp := range loginPathPrefix {
		onLogin = onLogin || p == lp || strings.HasPrefix(p, lp+"/")
	}
	r := Result{Kind: LoginWall, Code: errs.LoginRequired, Terminal: true,
		Message: "the site is not logged in"}
	switch {
	case onLogin:
		r.Evidence = ev("url", "")
	case s.has(FlagLoggedOut) && !s.has(FlagLoggedIn):
		r.Evidence = ev("flag:"+FlagLoggedOut, "")
	case s.has(FlagLoginControl) && !s.ComposerPresent && !s.has(FlagLoggedIn):
		// A landing page with "Sign in" and no composer (Grok logged
		// out): nothing can be typed, and waiting for a composer would
		// blame the selectors.
		r.Evidence = ev("flag:"+FlagLoginControl, "")
	default:
		return Result{}, false
	}
	return r, true
}

func host(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func path(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return u.Path
}

// redact drops userinfo, query and fragment, which may hold tokens.
func redact(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	return (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: u.Path}).String()
}

func clip(s string, n int) string {
	s = strings.TrimSpace(s)
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

// CapErr is the envelope of a usage cap that a site reported outside the
// page (in its answer stream or the body of a refused send): code
// UsageCap, evidence interstitial=usage_cap, and the reset time with its
// hint when resetAt is not zero. A cap is never cooled down and resent.
func CapErr(message string, resetAt time.Time) *errs.Envelope {
	r := Result{Kind: UsageCap, Code: errs.UsageCap, Terminal: true, Message: message}
	if !resetAt.IsZero() {
		r.ResetAt = resetAt.UTC()
	}
	return errs.From(r.Err())
}
