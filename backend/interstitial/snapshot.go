// Package interstitial recognises the pages and notices that stand between
// Ferry and an answer: Cloudflare challenges, rate-limit modals, usage caps,
// "conversation too long", consent pages, login walls, expired sessions,
// account flags and generic errors. The decision is a pure function over a
// Snapshot of the page, so every signature and every false-positive trap is
// table-tested. The package holds the signs every site shares; a sign of one
// site (DeepSeek's busy server, Claude's tool use limit) is a Rule that the
// site's package (provider/<vendor>) registers from its init;
// the JavaScript that collects a Snapshot in a page ships here too, for the
// browser package to evaluate.
package interstitial

import (
	_ "embed"
	"encoding/json"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Flags the collector sets when a probe selector matches.
const (
	FlagChallengeForm    = "cf_challenge_form"    // #challenge-form
	FlagChallengeRunning = "cf_challenge_running" // #challenge-running
	FlagChallengeClass   = "cf_challenge_class"   // [class*="cf-challenge"]
	FlagChallengeIframe  = "cf_challenge_iframe"  // a challenges.cloudflare.com or challenge-platform iframe
	FlagChallengeScript  = "cf_challenge_script"  // a challenge-platform script: on normal pages too, weak
	FlagRegenerateError  = "regenerate_error"     // ChatGPT's regenerate-after-error button
	FlagLoggedIn         = "logged_in"            // one of the site's logged-in markers is visible
	FlagLoggedOut        = "logged_out"           // one of the site's logged-out markers is visible
	FlagLoginControl     = "login_control"        // a visible "Sign in" / "Log in" control on a loaded page
)

// Snapshot is what the detector knows about a page at one moment.
type Snapshot struct {
	URL   string `json:"url"`
	Title string `json:"title"`
	// Body is the start of document.body.innerText; BodyLength its full length.
	Body       string `json:"body"`
	BodyLength int    `json:"bodyLength"`
	// Flags are the names of the probes that matched (Flag* constants).
	Flags []string `json:"flags"`
	// Dialogs are the visible texts of dialogs, alerts and toasts.
	Dialogs []string `json:"dialogs"`
	// ErrorTexts are the visible texts of the site's error_text selectors.
	ErrorTexts []string `json:"errorTexts"`
	// Outside is the start of the visible text outside the thread's turns
	// and the composer: where a site puts a notice that has no dialog or
	// alert role (a banner over a blocked composer). Only the strict
	// wording of a usage cap counts there.
	Outside string `json:"outside,omitempty"`
	// OutsideTimes are the datetime attributes of time elements outside
	// the thread's turns.
	OutsideTimes []string `json:"outsideTimes,omitempty"`
	// LastAnswer is the start of the last assistant turn's text.
	LastAnswer string `json:"lastAnswer"`
	// ComposerPresent is true when the site's composer is visible.
	ComposerPresent bool `json:"composerPresent"`
	// OnLoginPage may be set by the caller, who knows the site's login
	// pages (site.Site.IsLoginURL); the detector also knows the common ones.
	OnLoginPage bool `json:"onLoginPage,omitempty"`
	// Times are the datetime attributes of time elements inside notices.
	Times []string `json:"times"`
	// Now is the page's clock when the snapshot was taken, and
	// TZOffsetMinutes its Date.getTimezoneOffset(), for reading "resets
	// after 8:53 PM" in the user's local time.
	Now             time.Time `json:"now"`
	TZOffsetMinutes int       `json:"tzOffsetMinutes"`
}

func (s Snapshot) has(flag string) bool {
	for _, f := range s.Flags {
		if f == flag {
			return true
		}
	}
	return false
}

//go:embed collect.js
var collectJS string

// Probe holds the site's selectors the collector needs.
type Probe struct {
	Composer      []string `json:"composer"`
	LoggedIn      []string `json:"loggedIn"`
	LoggedOut     []string `json:"loggedOut"`
	ErrorText     []string `json:"errorText"`
	AssistantTurn []string `json:"assistantTurn"`
	// UserTurn and Thoughts are left out of Outside (with AssistantTurn
	// and Composer); Thoughts are left out of LastAnswer too.
	UserTurn []string `json:"userTurn,omitempty"`
	Thoughts []string `json:"thoughts,omitempty"`
}

// Script returns a JavaScript expression that evaluates, in a page, to the
// JSON text of a Snapshot (read it with ParseSnapshot).
func Script(p Probe) string {
	cfg, _ := json.Marshal(p)
	return "(" + collectJS + ")(" + string(cfg) + ")"
}

// ParseSnapshot reads the JSON the collector returned. A malformed value is
// an errs.Internal envelope: it means the collector and Go disagree.
func ParseSnapshot(raw string) (Snapshot, error) {
	var s Snapshot
	if err := json.Unmarshal([]byte(raw), &s); err != nil {
		return Snapshot{}, errs.Wrap(err, errs.Internal, "read page snapshot: %v", err)
	}
	return s, nil
}
