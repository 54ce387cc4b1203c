package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/notify"
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
// and still says what to do. (How a hint is put in the window's words is
// app/internal/wording's test of the same name.)
func TestNoErrorCardNamesTheCLI(t *testing.T) {
	for _, spec := range errs.Catalog() {
		t.Run(string(spec.Code), func(t *testing.T) {
			env := errs.New(spec.Code, "the message")
			shown := []*errs.Envelope{formatError(env).(*errs.Envelope), runInfoOf(service.Job{ID: "job-1", Error: env}).Error}
			for _, s := range shown {
				if s.RetryHint == "" {
					t.Errorf("%s: the window says nothing to do", spec.Code)
				}
				if errs.NamesCLI(s.RetryHint) {
					t.Errorf("%s: the window's hint names the CLI: %q", spec.Code, s.RetryHint)
				}
			}
			if n, ok := noticeOf(env); ok && errs.NamesCLI(n) {
				t.Errorf("%s: the notification names the CLI: %q", spec.Code, n)
			}
			if errs.NamesCLI(spec.Hint) && env.RetryHint != spec.Hint {
				t.Errorf("%s: the envelope itself was changed: %q", spec.Code, env.RetryHint)
			}
		})
	}
}

// noticeOf is the notification body of a run that failed with env.
func noticeOf(env *errs.Envelope) (string, bool) {
	n, ok := notify.NoticeFor(context.Background(), event.Event{Type: event.RunUpdate,
		Job: &service.Job{ID: "job-1", State: string(record.StateFailed), Error: env}}, nil, func(id string) string { return id })
	return n.Body, ok
}
