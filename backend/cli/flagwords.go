package cli

import (
	"errors"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// A request's rules are written once, in its Validate, in the words of its
// fields; at the terminal they are said in the words of the flags that
// set those fields.

// fieldFlags turns the request fields a Validate error names into the
// flags of ask and code.
var fieldFlags = strings.NewReplacer(
	`"sessionId"`, "--session", "sessionId", "--session",
	`"tabId"`, "--tab", "tabId", "--tab",
	`"newChat"`, "--new-chat", "newChat", "--new-chat",
	`"conversation"`, "--conv",
	`"site"`, "--site",
	`"timeoutSeconds"`, "--timeout", "timeoutSeconds", "--timeout",
	`"cooldownSeconds"`, "--cooldown", "cooldownSeconds", "--cooldown",
	`"inlineFiles"`, "--inline-files", "inlineFiles", "--inline-files",
	`"files"`, "--file",
	`"template"`, "--template", `"vars"`, "--var",
)

// inFlags says err, a request's Validate error, in the flags' words; any
// other error is returned as it is.
func inFlags(err error) error {
	var e *errs.Envelope
	if !errors.As(err, &e) || e.Code != errs.BadInput {
		return err
	}
	out := *e
	out.Message, out.RetryHint = fieldFlags.Replace(e.Message), fieldFlags.Replace(e.RetryHint)
	return &out
}
