package record

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestPromptSentSaysWhetherThePromptMayBeAtTheSite(t *testing.T) {
	confirmed := &Fingerprint{Hash: "h", Confirmed: true, ConfirmedBy: "submit"}
	unconfirmed := &Fingerprint{Hash: "h"}
	for _, tc := range []struct {
		name string
		s    Run
		want Sent
	}{
		{"a run refused at its preflight (logged out) sent nothing", Run{State: StateFailed, StateBefore: StateResolved, Error: errs.New(errs.LoginRequired, "log in")}, SentNo},
		{"a run stopped once the prompt was typed sent nothing", Run{State: StateFailed, StateBefore: StateComposed}, SentNo},
		{"a run cancelled before its send sent nothing", Run{State: StateCancelled, StateBefore: StatePreflighted}, SentNo},
		{"a click proven not to reach the page sent nothing", Run{State: StateFailed, StateBefore: StateSubmitting, Fingerprint: unconfirmed,
			Error: errs.New(errs.SendUnconfirmed, "covered").WithEvidence("sent", "false")}, SentNo},
		{"a run stopped while sending may have sent", Run{State: StateFailed, StateBefore: StateSubmitting, Fingerprint: unconfirmed}, SentMaybe},
		{"a run left at submitting (send unconfirmed) may have sent", Run{State: StateSubmitting, Fingerprint: unconfirmed, Error: errs.New(errs.SendUnconfirmed, "?")}, SentMaybe},
		{"a run that failed while the answer streamed sent", Run{State: StateFailed, StateBefore: StateStreaming, Fingerprint: confirmed, Error: errs.New(errs.GenerationError, "oops")}, SentYes},
		{"a run whose browser went away mid-answer sent", Run{State: StateStreaming, Fingerprint: confirmed, Error: errs.New(errs.BrowserDisconnected, "gone")}, SentYes},
		{"a stale run interrupted while streaming sent", Run{State: StateStale, StateBefore: StateStreaming}, SentYes},
		{"a run that timed out waiting for the answer sent", Run{State: StateFailed, StateBefore: StateSubmitted, Error: errs.New(errs.Timeout, "late")}, SentYes},
		{"a page that took its answer with it says so", Run{State: StateFailed, Error: errs.New(errs.TargetNotFound, "gone").WithEvidence("sent", "yes")}, SentYes},
		{"a record with an answer but no steps sent", Run{State: StateFailed, Answer: "Levels merge."}, SentYes},
		{"a record that cannot tell may have sent", Run{State: StateFailed}, SentMaybe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.PromptSent(); got != tc.want {
				t.Errorf("PromptSent() = %s, want %s", got, tc.want)
			}
		})
	}
}
