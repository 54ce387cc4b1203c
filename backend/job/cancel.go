package job

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Collectable reports whether the user cancelled run s while its answer
// streamed: the run is cancelled, its Answer holds what had streamed
// (AnswerPartial), and the site may still hold the whole answer, which
// Reattach collects without sending the prompt again.
func (s *Session) Collectable() bool {
	return s.State == StateCancelled && (s.StateBefore == StateSubmitted || s.StateBefore == StateStreaming)
}

// cancelledByUser reports whether ctx ended because it was cancelled (the
// user's Cancel), not because a deadline passed.
func cancelledByUser(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}

// cancelStreaming journals a run the user cancelled while its answer
// streamed: cancelled, keeping the text so far as its partial answer. It
// returns the record and the Cancelled envelope.
func (r *Runner) cancelStreaming(ctx context.Context, s *Session, partial string) (*Session, error) {
	env := errs.New(errs.Cancelled, "the run was cancelled while the answer streamed; the %d characters received are kept", utf8.RuneCountInString(partial)).
		WithEvidence("session", s.ID).
		WithHint("the site may still be answering: collecting the rest reattaches the run without sending the prompt again")
	note := fmt.Sprintf("cancelled while streaming, %d characters kept", utf8.RuneCountInString(partial))
	out, err := r.move(context.WithoutCancel(ctx), s.ID, StateCancelled, note, func(x *Session) {
		x.Error, x.Answer, x.AnswerPartial = env, partial, true
		x.Content = nil
	})
	if err != nil {
		return s, errors.Join(env, err)
	}
	return out, env
}

// resumeCancelled moves a Collectable run back to the state it was
// cancelled in, for Reattach to collect the rest of its answer.
func (r *Runner) resumeCancelled(ctx context.Context, s *Session) (*Session, error) {
	return r.move(ctx, s.ID, s.StateBefore, "reattach: collect the rest of the cancelled answer", func(x *Session) {
		x.Error, x.AnswerPartial = nil, false
	})
}
