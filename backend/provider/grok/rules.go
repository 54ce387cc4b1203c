package grok

import (
	"regexp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are Grok's own interstitial signs: "Grok is under heavy usage" is a
// rate limit without a button, waited out with the detector's cooldown.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     "grok/heavy-usage",
		Notice: regexp.MustCompile(`(?i)under heavy (usage|load)`),
		Verdict: interstitial.Result{Kind: interstitial.HeavyUsage, Code: errs.RateLimited, Terminal: true,
			Message: "the site is under heavy usage"},
	}}
}
