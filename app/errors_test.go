package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
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
