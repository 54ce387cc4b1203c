package job

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestPromptSentSaysWhetherThePromptMayBeAtTheSite(t *testing.T) {
	confirmed := &Fingerprint{Hash: "h", Confirmed: true, ConfirmedBy: "submit"}
	unconfirmed := &Fingerprint{Hash: "h"}
	for _, tc := range []struct {
		name string
		s    Session
		want Sent
	}{
		{"a run refused at its preflight (logged out) sent nothing", Session{State: StateFailed, StateBefore: StateResolved, Error: errs.New(errs.LoginRequired, "log in")}, SentNo},
		{"a run stopped once the prompt was typed sent nothing", Session{State: StateFailed, StateBefore: StateComposed}, SentNo},
		{"a run cancelled before its send sent nothing", Session{State: StateCancelled, StateBefore: StatePreflighted}, SentNo},
		{"a click proven not to reach the page sent nothing", Session{State: StateFailed, StateBefore: StateSubmitting, Fingerprint: unconfirmed,
			Error: errs.New(errs.SendUnconfirmed, "covered").WithEvidence("sent", "false")}, SentNo},
		{"a run stopped while sending may have sent", Session{State: StateFailed, StateBefore: StateSubmitting, Fingerprint: unconfirmed}, SentMaybe},
		{"a run left at submitting (send unconfirmed) may have sent", Session{State: StateSubmitting, Fingerprint: unconfirmed, Error: errs.New(errs.SendUnconfirmed, "?")}, SentMaybe},
		{"a run that failed while the answer streamed sent", Session{State: StateFailed, StateBefore: StateStreaming, Fingerprint: confirmed, Error: errs.New(errs.GenerationError, "oops")}, SentYes},
		{"a run whose browser went away mid-answer sent", Session{State: StateStreaming, Fingerprint: confirmed, Error: errs.New(errs.BrowserDisconnected, "gone")}, SentYes},
		{"a stale run interrupted while streaming sent", Session{State: StateStale, StateBefore: StateStreaming}, SentYes},
		{"a run that timed out waiting for the answer sent", Session{State: StateFailed, StateBefore: StateSubmitted, Error: errs.New(errs.Timeout, "late")}, SentYes},
		{"a page that took its answer with it says so", Session{State: StateFailed, Error: errs.New(errs.TargetNotFound, "gone").WithEvidence("sent", "yes")}, SentYes},
		{"a record with an answer but no steps sent", Session{State: StateFailed, Answer: "Levels merge."}, SentYes},
		{"a record that cannot tell may have sent", Session{State: StateFailed}, SentMaybe},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tc.s.PromptSent(); got != tc.want {
				t.Errorf("PromptSent() = %s, want %s", got, tc.want)
			}
		})
	}
}
