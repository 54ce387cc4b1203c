package deepseek

import (
	"regexp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are DeepSeek's own interstitial signs: its "The server is busy"
// notice fails the turn, and its Retry button is what a policy may click.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     "deepseek/server-busy",
		Notice: regexp.MustCompile(`(?i)server is busy`),
		Verdict: interstitial.Result{Kind: interstitial.ServerBusy, Code: errs.GenerationError, Action: "Retry", Terminal: true,
			Message: "the site says its server is busy"},
	}}
}
