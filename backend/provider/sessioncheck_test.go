package provider

import (
	"errors"
	"testing"

	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
)

func TestSessionCheckFailedNamesTheRealCause(t *testing.T) {
	for _, tc := range []struct {
		name string
		err  error
		want errs.Code
	}{
		{"a tab Ferry detached from is a tab problem", errs.New(errs.TargetNotFound, "Ferry detached from the tab"), errs.TargetNotFound},
		{"a crashed tab is a tab problem", errs.New(errs.TargetCrashed, "the tab crashed"), errs.TargetCrashed},
		{"a lost browser is a browser problem", errs.New(errs.BrowserDisconnected, "the browser went away"), errs.BrowserDisconnected},
		{"a navigation during the read is a navigation", errs.New(errs.NavigationAborted, "navigated"), errs.NavigationAborted},
		{"the deadline is a timeout", errs.New(errs.Timeout, "late"), errs.Timeout},
		{"a fetch the page could not complete is a login problem", &fetch.Error{URL: "https://chatgpt.com/api/auth/session", Reason: "Failed to fetch"}, errs.LoginRequired},
		{"a script error is a login problem", errs.Wrap(errors.New("boom"), errs.Internal, "boom"), errs.LoginRequired},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SessionCheckFailed(tc.err, "the session")
			if errs.CodeOf(got) != tc.want {
				t.Fatalf("SessionCheckFailed(%v) = %v, want %s", tc.err, got, tc.want)
			}
			if tc.want == errs.LoginRequired && errs.From(got).Stage != errs.StageSession {
				t.Fatalf("stage %s, want the session stage", errs.From(got).Stage)
			}
		})
	}
}
