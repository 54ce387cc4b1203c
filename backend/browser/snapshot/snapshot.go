// Package snapshot reads what a failure report keeps of a tab besides its
// DOM: the errors its page reported (ConsoleErrors) and a screenshot
// (Screenshot). It needs no more of the tab than Tab says.
package snapshot

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Tab is what a snapshot needs of a tab: *browser.Page.
type Tab interface {
	// Exec sends one CDP method to the tab.
	Exec(ctx context.Context, method string, params, result any) error
	// Events delivers the tab's CDP events until stop is called.
	Events(ctx context.Context) (events <-chan *rod.Message, stop func())
	// HoldInput has the tab render (and take input) while it stays in
	// the background; release ends that.
	HoldInput(ctx context.Context) (release func(), err error)
	// Err is nil while the tab is usable, then why it is not.
	Err() error
}

// replayGrace is how long ConsoleErrors waits, after the replay's replies,
// for messages still on their way.
const replayGrace = 150 * time.Millisecond

// ConsoleErrors returns up to max of the errors the tab's page reported:
// console.error and console.assert calls, uncaught exceptions, and the
// browser's own error entries (a resource that failed to load). Chromium
// keeps them while a DevTools client is attached and replays them to a
// session that enables the Runtime and Log domains; ConsoleErrors enables
// both for the replay and disables them again. Each entry is one line,
// clipped to 500 characters. Errors: the page's envelopes.
func ConsoleErrors(ctx context.Context, p Tab, max int) ([]string, error) {
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	events, stop := p.Events(sctx)
	defer stop()
	var out []string
	add := func(s string) {
		if len(out) < max {
			out = append(out, clipLine(s, 500))
		}
	}
	for _, m := range []string{"Runtime.enable", "Log.enable"} {
		if err := p.Exec(ctx, m, nil, nil); err != nil {
			return nil, err
		}
	}
	defer func() {
		dctx, dcancel := context.WithTimeout(context.WithoutCancel(ctx), 2*time.Second)
		defer dcancel()
		_ = p.Exec(dctx, "Log.disable", nil, nil)
		_ = p.Exec(dctx, "Runtime.disable", nil, nil)
	}()
	grace := time.NewTimer(replayGrace)
	defer grace.Stop()
	for {
		select {
		case <-ctx.Done():
			return out, nil
		case <-grace.C:
			return out, nil
		case m, ok := <-events:
			if !ok {
				return out, nil
			}
			switch m.Method {
			case "Runtime.consoleAPICalled":
				var e proto.RuntimeConsoleAPICalled
				if !m.Load(&e) || (e.Type != proto.RuntimeConsoleAPICalledTypeError && e.Type != proto.RuntimeConsoleAPICalledTypeAssert) {
					continue
				}
				var parts []string
				for _, a := range e.Args {
					if a == nil {
						continue
					}
					switch {
					case a.Value.Val() != nil:
						parts = append(parts, fmt.Sprint(a.Value.Val()))
					case a.Description != "":
						parts = append(parts, a.Description)
					}
				}
				add("console." + string(e.Type) + ": " + strings.Join(parts, " "))
			case "Runtime.exceptionThrown":
				var e proto.RuntimeExceptionThrown
				if !m.Load(&e) || e.ExceptionDetails == nil {
					continue
				}
				d := e.ExceptionDetails.Text
				if e.ExceptionDetails.Exception != nil && e.ExceptionDetails.Exception.Description != "" {
					d += " " + e.ExceptionDetails.Exception.Description
				}
				add("exception: " + d)
			case "Log.entryAdded":
				var e proto.LogEntryAdded
				if !m.Load(&e) || e.Entry == nil || e.Entry.Level != proto.LogLogEntryLevelError {
					continue
				}
				add(string(e.Entry.Source) + ": " + e.Entry.Text)
			}
		}
	}
}

func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > n {
		return s[:n] + "…"
	}
	return s
}

// shotAttempt is how long a screenshot request goes unanswered before
// another is sent beside it. A tab in the background answers a capture
// only once it draws a frame, and at times it draws that frame only for a
// later request (measured with headless Chromium 156 on a simulated site's
// tab after a run: the first capture waited forever, a second one sent
// after 1.5 s answered in under 100 ms; sent after 0.75 s, three in a row
// waited). Earlier requests stay pending, so a capture that is merely slow
// (a busy machine) still answers.
const shotAttempt = 1500 * time.Millisecond

// maxShotRequests bounds the requests one Screenshot sends.
const maxShotRequests = 8

// Screenshot returns a JPEG of the tab's viewport at quality 60, or nil
// when it would be larger than maxBytes. A tab in the background of a
// headful window draws no frames: the capture holds input (see
// browser.Page.HoldInput), which has Chromium render it without showing
// it. It sends a request, and another each shotAttempt the earlier ones go
// unanswered, and takes the first answer, until ctx ends. Errors: the
// page's envelopes.
func Screenshot(ctx context.Context, p Tab, maxBytes int) ([]byte, error) {
	release, err := p.HoldInput(ctx)
	if err != nil {
		return nil, err
	}
	var img []byte
	err = func() error {
		defer release()
		actx, cancel := context.WithCancel(ctx)
		defer cancel() // the requests still pending
		type answer struct {
			data []byte
			err  error
		}
		answers := make(chan answer, maxShotRequests)
		quality := 60
		ask := func() {
			var res proto.PageCaptureScreenshotResult
			err := p.Exec(actx, "Page.captureScreenshot", proto.PageCaptureScreenshot{
				Format: proto.PageCaptureScreenshotFormatJpeg, Quality: &quality}, &res)
			answers <- answer{res.Data, err}
		}
		go ask()
		sent, pending := 1, 1
		tick := time.NewTicker(shotAttempt)
		defer tick.Stop()
		var last error
		for pending > 0 || (sent < maxShotRequests && ctx.Err() == nil) {
			select {
			case a := <-answers:
				pending--
				if a.err == nil {
					img = a.data
					return nil
				}
				last = a.err
				if ctx.Err() != nil || p.Err() != nil {
					return last
				}
			case <-tick.C:
				if sent < maxShotRequests {
					sent++
					pending++
					go ask()
				}
			case <-ctx.Done():
				if last == nil {
					last = errs.Wrap(ctx.Err(), errs.Timeout, "take a screenshot of the tab: %v", ctx.Err())
				}
				return last
			}
		}
		return last
	}()
	if err != nil {
		return nil, err
	}
	if len(img) > maxBytes {
		return nil, nil
	}
	return img, nil
}
