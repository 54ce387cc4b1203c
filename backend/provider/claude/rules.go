package claude

import (
	"regexp"

	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are Claude's own interstitial signs: an answer paused at its tool
// use limit is not an error, and "Continue" resumes it.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     "claude/tool-use-limit",
		Notice: regexp.MustCompile(`(?i)reached its tool use limit`),
		Verdict: interstitial.Result{Kind: interstitial.ToolUseLimit, Action: "Continue",
			Message: "the answer paused at its tool use limit"},
	}}
}
