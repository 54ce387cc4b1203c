package app

import (
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/errs"
)

// formatError is the options.App ErrorFormatter: the one place where a Go
// error becomes what a rejected promise carries in the frontend. Every error
// becomes an envelope (errs.From keeps envelopes as they are and turns
// anything else into `internal`), so the UI always has a code, a message and
// what to do, in the window's words (wording.ForDesktop).
func formatError(err error) any {
	return wording.ForDesktop(errs.From(err))
}
