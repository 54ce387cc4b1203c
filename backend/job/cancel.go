package job

import (
	"context"
	"errors"
	"fmt"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// cancelledByUser reports whether ctx ended because it was cancelled (the
// user's Cancel), not because a deadline passed.
func cancelledByUser(ctx context.Context) bool {
	return errors.Is(ctx.Err(), context.Canceled)
}

// SiteStoppedKey is the evidence key of the Cancelled envelope of a run
// cancelled while its answer streamed: "true" when the site stopped
// writing at Ferry's press on its stop control, "false" when it went on
// (its tab stays busy until its answer ends); absent when the adapter
// cannot stop its site.
const SiteStoppedKey = "site_stopped"

// SiteWentOn reports whether err is the envelope of a run cancelled while
// its answer streamed whose site did not stop writing.
func SiteWentOn(err error) bool {
	env := errs.From(err)
	return err != nil && env.Code == errs.Cancelled && env.Evidence[SiteStoppedKey] == "false"
}

// stopBound bounds a Stopper's Stop for a cancelled run.
const stopBound = time.Minute

// stopSite stops the answer the site of a writes for the run the user
// cancelled (see provider.Stopper), with a context that outlives the
// cancelled one (Stop bounds itself; stopBound only catches a hang).
// known is false when a cannot stop its site; err says why a site did not
// stop.
func (r *Runner) stopSite(ctx context.Context, a provider.Adapter) (known bool, err error) {
	st, ok := a.(provider.Stopper)
	if !ok {
		return false, nil
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), stopBound)
	defer cancel()
	return true, st.Stop(sctx)
}

// cancelStreaming journals a run the user cancelled while its answer
// streamed: the site is asked to stop writing (stopSite), and the run is
// cancelled, keeping the text so far as its partial answer. It returns the
// record and the Cancelled envelope, whose evidence SiteStoppedKey says
// whether the site stopped.
func (r *Runner) cancelStreaming(ctx context.Context, s *Session, a provider.Adapter, partial string) (*Session, error) {
	known, serr := r.stopSite(ctx, a)
	n := utf8.RuneCountInString(partial)
	name := a.Site().Name
	var env *errs.Envelope
	var note string
	switch {
	case !known:
		env = errs.New(errs.Cancelled, "the run was cancelled while the answer streamed; the %d characters received are kept", n).
			WithHint("the site may still be answering: collecting the rest reattaches the run without sending the prompt again")
		note = fmt.Sprintf("cancelled while streaming, %d characters kept", n)
	case serr == nil:
		env = errs.New(errs.Cancelled, "the run was cancelled while the answer streamed and %s stopped writing; the %d characters received are kept", name, n).
			WithEvidence(SiteStoppedKey, "true").
			WithHint("collecting the rest reads the answer as %s kept it, without sending the prompt again", name)
		note = fmt.Sprintf("cancelled while streaming, %s stopped, %d characters kept", name, n)
	default:
		env = errs.New(errs.Cancelled, "the run was cancelled while the answer streamed, but %s did not stop writing (%s); the %d characters received are kept", name, errs.From(serr).Message, n).
			WithEvidence(SiteStoppedKey, "false").
			WithHint("%s's tab stays busy until its answer ends: the next prompt to %s goes to another tab (or waits for this one); collecting the rest gets the whole answer", name, name)
		if by := errs.From(serr).Evidence["covered_by"]; by != "" {
			env = env.WithEvidence("covered_by", by) // what kept Ferry from pressing the stop control
		}
		note = fmt.Sprintf("cancelled while streaming, %s did not stop, %d characters kept", name, n)
	}
	env = env.WithEvidence("session", s.ID)
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
