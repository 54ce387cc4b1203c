package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestFormatErrorGivesTheFrontendAnEnvelope(t *testing.T) {
	cases := []struct {
		name     string
		err      error
		wantCode errs.Code
	}{
		{name: "an envelope keeps its code", err: errs.New(errs.ConfigInvalid, "theme %q is not allowed", "purple"), wantCode: errs.ConfigInvalid},
		{name: "a wrapped envelope keeps its code", err: fmt.Errorf("save settings: %w", errs.New(errs.StoreBusy, "held")), wantCode: errs.StoreBusy},
		{name: "a plain error becomes internal", err: errors.New("boom"), wantCode: errs.Internal},
		{name: "a deadline becomes a timeout", err: context.DeadlineExceeded, wantCode: errs.Timeout},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			// Wails marshals the formatter's result into the rejected promise.
			b, err := json.Marshal(formatError(c.err))
			if err != nil {
				t.Fatalf("marshal: %v", err)
			}
			var got struct {
				Code      string `json:"code"`
				Message   string `json:"message"`
				RetryHint string `json:"retryHint"`
				Stage     string `json:"stage"`
			}
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("unmarshal %s: %v", b, err)
			}
			if got.Code != string(c.wantCode) || got.Message == "" || got.RetryHint == "" || got.Stage == "" {
				t.Errorf("got %s, want code %s with message, hint and stage", b, c.wantCode)
			}
		})
	}
}

// TestNoErrorCardNamesTheCLI walks the whole error catalog: what the window
// shows for every code (the envelope a bound call rejects with, a run's
// error, a notification) names no command-line flag and no ferry command,
// and still says what to do.
func TestNoErrorCardNamesTheCLI(t *testing.T) {
	if !namesCLI("pass --tab with one of the ids") || !namesCLI("run `ferry reattach --session X`") || namesCLI("open it in Ferry") {
		t.Fatal("namesCLI does not tell the terminal's words from the window's")
	}
	for _, spec := range errs.Catalog() {
		t.Run(string(spec.Code), func(t *testing.T) {
			env := errs.New(spec.Code, "the message")
			shown := []*errs.Envelope{formatError(env).(*errs.Envelope), runInfoOf(service.Job{ID: "job-1", Error: env}).Error}
			for _, s := range shown {
				if s.RetryHint == "" {
					t.Errorf("%s: the window says nothing to do", spec.Code)
				}
				if namesCLI(s.RetryHint) {
					t.Errorf("%s: the window's hint names the CLI: %q", spec.Code, s.RetryHint)
				}
			}
			if n, ok := noticeOf(env); ok && namesCLI(n) {
				t.Errorf("%s: the notification names the CLI: %q", spec.Code, n)
			}
			if namesCLI(spec.Hint) && env.RetryHint != spec.Hint {
				t.Errorf("%s: the envelope itself was changed: %q", spec.Code, env.RetryHint)
			}
		})
	}
	t.Run("a hint given at the call site that names a flag is replaced too", func(t *testing.T) {
		env := errs.New(errs.TabAmbiguous, "2 ChatGPT tabs are open").WithHint("pass --tab %s", "ABC")
		if got := formatError(env).(*errs.Envelope).RetryHint; got != desktopHints[errs.TabAmbiguous] {
			t.Errorf("hint %q", got)
		}
		kept := errs.New(errs.LoginRequired, "log in").WithHint("log in to ChatGPT in the browser window, then Retry")
		if got := formatError(kept).(*errs.Envelope).RetryHint; got != kept.RetryHint {
			t.Errorf("a hint in the window's words was replaced: %q", got)
		}
	})
}

// noticeOf is the notification body of a run that failed with env.
func noticeOf(env *errs.Envelope) (string, bool) {
	n, ok := noticeFor(context.Background(), ownerEvent{Type: eventRunUpdate,
		Job: &service.Job{ID: "job-1", State: string(record.StateFailed), Error: env}}, nil, func(id string) string { return id })
	return n.Body, ok
}
