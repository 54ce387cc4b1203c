package wording

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestNoErrorCardNamesTheCLI: the window's hint replaces one that names a
// flag or a command, wherever it was written (the app's test of the same
// name walks the whole catalog through the app's faces).
func TestNoErrorCardNamesTheCLI(t *testing.T) {
	if !namesCLI("pass --tab with one of the ids") || !namesCLI("run `ferry reattach --session X`") || namesCLI("open it in Ferry") {
		t.Fatal("namesCLI does not tell the terminal's words from the window's")
	}
	t.Run("a hint given at the call site that names a flag is replaced too", func(t *testing.T) {
		env := errs.New(errs.TabAmbiguous, "2 ChatGPT tabs are open").WithHint("pass --tab %s", "ABC")
		if got := ForDesktop(errs.From(env)).RetryHint; got != desktopHints[errs.TabAmbiguous] {
			t.Errorf("hint %q", got)
		}
		kept := errs.New(errs.LoginRequired, "log in").WithHint("log in to ChatGPT in the browser window, then Retry")
		if got := ForDesktop(errs.From(kept)).RetryHint; got != kept.RetryHint {
			t.Errorf("a hint in the window's words was replaced: %q", got)
		}
	})
}
