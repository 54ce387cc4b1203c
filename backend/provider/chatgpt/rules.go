package chatgpt

import (
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
)

// Rules are ChatGPT's own interstitial signs: a page on OpenAI's sign-in
// host is a login wall, whatever the tab was bound to.
func Rules() []interstitial.Rule {
	return []interstitial.Rule{{
		ID:   "chatgpt/login-host",
		Host: "auth.openai.com",
		Verdict: interstitial.Result{Kind: interstitial.LoginWall, Code: errs.LoginRequired, Terminal: true,
			Message: "the site is not logged in"},
	}}
}
