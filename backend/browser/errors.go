package browser

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"syscall"

	"github.com/go-rod/rod/lib/cdp"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Chromium answers these when the page a call was running in went away.
// rod only names some of them; the rest are defined here so that errors are
// matched by value (errors.Is), not by reading text.
var (
	errTargetNavigatedOrClosed = &cdp.Error{Code: -32000, Message: "Inspected target navigated or closed"}
	errPromiseCollected        = &cdp.Error{Code: -32000, Message: "Promise was collected"}
	errTargetClosed            = &cdp.Error{Code: -32000, Message: "Target closed"}
	errNoTargetWithID          = &cdp.Error{Code: -32602, Message: "No target with given id found"}
)

// ErrObscured is returned (wrapped) by Click when another element covers the
// centre of the one to click, such as a modal backdrop. Nothing was clicked:
// the caller should look for an interstitial before trying again.
var ErrObscured = errors.New("element is covered by another element")

// ErrNotDelivered is returned (wrapped) by Click when the press reached the
// page neither time it was sent (a tab that draws no frames drops mouse
// input): nothing was clicked.
var ErrNotDelivered = errors.New("the press did not reach the page")

// ObscuredError is Click's error when something covers the element: By
// names what covers it (tag, id, classes, role, aria-label, test id, text
// head) for the envelope's evidence. It matches ErrObscured.
type ObscuredError struct {
	Selector string
	By       string
}

func (e *ObscuredError) Error() string {
	return fmt.Sprintf("click %s: covered by %s: %v", e.Selector, e.By, ErrObscured)
}

// Is makes errors.Is(err, ErrObscured) hold.
func (e *ObscuredError) Is(target error) bool { return target == ErrObscured }

// ScriptError is a JavaScript exception thrown by code Ferry evaluated in a
// page. It is a bug or a site change, not a browser failure.
type ScriptError struct {
	Text string // the exception's description as Chromium gives it
}

func (e *ScriptError) Error() string { return "script threw: " + e.Text }

// classify turns the failure of a CDP call made for op into an envelope. The
// order matters: the reason recorded when the page or browser went away wins
// over the generic error the call itself saw (a cancelled context, an EOF).
func classify(op string, opCtx, callerCtx context.Context, err error) error {
	if err == nil {
		return nil
	}
	var env *errs.Envelope
	if errors.As(err, &env) {
		return err
	}
	if cause := context.Cause(opCtx); cause != nil && errors.As(cause, &env) {
		return cause
	}
	if cerr := callerCtx.Err(); cerr != nil {
		if errors.Is(cerr, context.DeadlineExceeded) {
			return errs.Wrap(err, errs.Timeout, "%s: the deadline passed", op).WithStage(errs.StageBrowser)
		}
		return errs.Wrap(err, errs.Cancelled, "%s: cancelled", op)
	}
	switch {
	case errors.Is(err, cdp.ErrCtxDestroyed), errors.Is(err, cdp.ErrCtxNotFound),
		errors.Is(err, errTargetNavigatedOrClosed), errors.Is(err, errPromiseCollected):
		return errs.Wrap(err, errs.NavigationAborted, "%s: the page navigated while Ferry was working on it", op)
	case errors.Is(err, cdp.ErrSessionNotFound), errors.Is(err, errTargetClosed), errors.Is(err, errNoTargetWithID):
		return errs.Wrap(err, errs.TargetNotFound, "%s: the tab is gone", op)
	case isConnectionError(err):
		return errs.Wrap(err, errs.BrowserDisconnected, "%s: the connection to the browser dropped", op)
	}
	var se *ScriptError
	if errors.As(err, &se) {
		return errs.Wrap(err, errs.Internal, "%s: %s", op, se.Text)
	}
	return errs.Wrap(err, errs.Internal, "%s: %v", op, err)
}

func isConnectionError(err error) bool {
	var ne net.Error
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) ||
		errors.Is(err, net.ErrClosed) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.As(err, &ne)
}
