package kimi

import (
	"regexp"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are Kimi's own interstitial signs: logged out, pressing send opens
// a login dialog and sends nothing, so that dialog is a login wall (not
// something covering the send control).
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:     "kimi/login-dialog",
		Notice: regexp.MustCompile(`(?i)\blog ?in to (?:kimi|continue)\b`),
		Verdict: interstitial.Result{Kind: interstitial.LoginWall, Code: errs.LoginRequired, Terminal: true,
			Message: "Kimi asks to log in before it sends anything"},
	}}
}
