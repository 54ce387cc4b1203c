package service

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The actions on one tab of the owner's browser, as TabActionRequest.Action.
const (
	// TabActionShow brings the tab to the front and raises the browser's window:
	// the one time Ferry puts the browser in front, because the user asked.
	TabActionShow = "show"
	// TabActionClose closes the tab.
	TabActionClose = "close"
	// TabActionLogin shows the tab on its site's login page, in front, for the
	// user to log in.
	TabActionLogin = "login"
)

// TabActions are the actions TabActionRequest takes, sorted.
var TabActions = []string{TabActionClose, TabActionLogin, TabActionShow}

// TabActionRequest does Action (show, close, login) on the owner's tab
// TargetID.
type TabActionRequest struct {
	TargetID string `json:"targetId"`
	Action   string `json:"action"`
}

// Validate checks the request. Errors: errs.BadInput for no tab or an
// unknown action.
func (r TabActionRequest) Validate() error {
	if strings.TrimSpace(r.TargetID) == "" {
		return errs.New(errs.BadInput, "a tab action needs the tab's id").WithHint("pick the tab from the list of tabs")
	}
	for _, a := range TabActions {
		if r.Action == a {
			return nil
		}
	}
	return errs.New(errs.BadInput, "%q is not a tab action", r.Action).WithHint("use one of %s", strings.Join(TabActions, ", "))
}

// TabActionResult is the tab after the action: Closed says it is gone
// (Tab then keeps what it was).
type TabActionResult struct {
	Tab    TabState `json:"tab"`
	Closed bool     `json:"closed,omitempty"`
}
