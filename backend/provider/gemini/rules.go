package gemini

import (
	"regexp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are Gemini's own interstitial signs: Gemini renders a failed turn
// as a short answer that apologises, so that answer ends the turn. Google's
// account pages (sign-in, consent, unusual traffic) serve AI Studio too and
// are the detector's own signs.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     "gemini/apology-answer",
		Answer: regexp.MustCompile(`(?i)^sorry, something went wrong`),
		Verdict: interstitial.Result{Kind: interstitial.GenericError, Code: errs.GenerationError, Terminal: true,
			Message: "the site answered with its error message"},
	}}
}
