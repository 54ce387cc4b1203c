package provider

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/domrule"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// Wait implements Adapter. With a stream the turn completes when the
// decoder proves it; without one (or when no stream response appears), by
// the DOM rules (see domrule.Rule): the site's positive signals of a finished
// turn confirmed over a few samples, or, on a page that never shows its
// finished-action bar, the quiet window; either way a notice the page shows
// after the prompt (an error, a limit) makes the turn that notice's
// envelope, never its partial text an answer.
func (w *Web) Wait(ctx context.Context, t *Turn, onPartial func(Partial)) error {
	prev, prevSource := "", ""
	emit := func(text, source string) {
		if text == prev || text == "" {
			return
		}
		added, rewritten := stream.Delta(prev, text)
		if source != prevSource && prevSource != "" {
			rewritten, added = true, text
		}
		prev, prevSource = text, source
		if onPartial != nil {
			onPartial(Partial{Text: text, Added: added, Rewritten: rewritten, Source: source})
		}
	}
	expectStream := t.dec != nil && !w.Env.Site.Stream.Optional
	var rule domrule.Rule
	domText, domChanged := "", time.Now()
	refusedAt, lookedAt, noticeAt := time.Time{}, time.Time{}, time.Time{}
	for tick := 0; ; tick++ {
		ss := t.snapshot()
		if ss.res.Err != nil {
			if lost := w.Page.Lost(ctx, 0); lost != nil {
				return lost
			}
			return w.streamErr(ctx, ss.res.Err)
		}
		if ss.started {
			emit(ss.res.Text, "stream")
			if ss.res.Complete {
				t.source = "stream"
				t.completeReason = "stream:" + firstNonEmpty(ss.res.FinishReason, "complete")
				if w.settle(ctx, t) {
					if err := disagree(w.Env.Site, ss.res.Text, t.domText); err != nil {
						return err
					}
				}
				return nil
			}
			if ss.status >= 400 {
				// A refused send: the body may say why (Claude's usage cap
				// with its reset time), else the page shows it (rate limit,
				// usage cap, expired session): give it a moment to render.
				if ss.refusal != nil {
					// A cap whose body names no reset time (Grok's): the
					// page's notice may (capReset).
					if e := errs.From(ss.refusal); e.Code == errs.UsageCap && e.Evidence["resets_at"] == "" {
						return w.capReset(ctx, e)
					}
					return ss.refusal
				}
				if refusedAt.IsZero() {
					refusedAt = time.Now()
				}
				// The body, read whole once the response ends, says more
				// than a page's generic notice (Grok's anti-bot code 7
				// behind "Something went wrong"): the page speaks first
				// only for a body that never ends.
				if bodyPending := !ss.ended && time.Since(refusedAt) < 2*time.Second; !bodyPending {
					if r, err := w.Interstitial(ctx); err == nil && r.Code != "" {
						return r.Err()
					}
				}
				if time.Since(refusedAt) > 5*time.Second {
					return refusal(w.Env.Site, ss.status)
				}
			} else if ss.ended && !ss.res.Handoff {
				// A capture ends with its run's context: a cancelled or
				// timed-out run is that, not a cut stream.
				if ctx.Err() != nil {
					return ContextErr(ctx, "waiting for the answer")
				}
				// A capture also ends with its tab or browser: a killed
				// browser is not the site's error, and the site goes on
				// answering without it.
				if lost := w.Page.Lost(ctx, streamLossGrace); lost != nil {
					return lost
				}
				if r, err := w.Interstitial(ctx); err == nil && r.Code != "" && r.Code != errs.GenerationError {
					return r.Err()
				}
				e := errs.New(errs.GenerationError, "the %s answer stream ended before the turn completed", w.Env.Site.Name).
					WithEvidence("reason", "stream_cut").WithEvidence("received_chars", strconv.Itoa(utf8.RuneCountInString(ss.res.Text)))
				if ss.endErr != nil {
					e = e.WithEvidence("transport", string(errs.CodeOf(ss.endErr)))
				}
				return e
			}
		}
		st, err := w.state(ctx)
		if err != nil {
			return err
		}
		if err := w.bound(st.URL); err != nil {
			return err
		}
		useDOM := !ss.started && (!expectStream || time.Since(t.SentAt) > 15*time.Second) || socketLost(ss)
		if st.Text != domText {
			domText, domChanged = st.Text, time.Now()
		}
		next := w.Poll
		if useDOM {
			if st.HasTurn {
				emit(st.Text, "dom")
			}
			switch reason := rule.Sample(st.turn(), time.Since(domChanged)); {
			case reason != "":
				// A failed turn can look finished (a retry control under
				// its partial text): the site's notice is the outcome.
				r, err := w.Interstitial(ctx)
				if err != nil {
					return err
				}
				if r.Code != "" && (r.Terminal || reason == domrule.QuietReason) {
					return r.Err()
				}
				if err := w.turnFailed(ctx); err != nil {
					return err
				}
				t.source, t.completeReason = "dom", reason
				t.domText, t.domSlug = st.Text, st.Slug
				return nil
			case rule.Confirming():
				next = min(next, domrule.ConfirmEvery)
			case rule.Stalled(st.turn(), time.Since(domChanged)) && time.Since(lookedAt) >= domrule.QuietWindow:
				lookedAt = time.Now()
				if err := w.turnFailed(ctx); err != nil {
					return err
				}
			}
		}
		if tick%3 == 0 {
			r, err := w.Interstitial(ctx)
			if err != nil {
				return err
			}
			// A notice shown while the answer's response is still open (or
			// not yet seen, on a loaded machine) waits a moment (3 s from when
			// it shows) for the response: the page renders a frame before the
			// capture delivers it, and the response names the cause (Grok's
			// anti-bot code 7 or "heavy usage" banner over a code 13 failure;
			// Gemini's BardErrorInfo code behind "Something went wrong").
			open := r.Code != "" && (ss.started || expectStream) && !ss.ended
			if open && noticeAt.IsZero() {
				noticeAt = time.Now()
			}
			if r.Code != "" && r.Terminal && !(open && time.Since(noticeAt) < 3*time.Second) {
				return r.Err()
			}
		}
		select {
		case <-ctx.Done():
			return ContextErr(ctx, "waiting for the answer")
		case <-t.notify:
		case <-time.After(next):
		}
	}
}

// A turn handed off to the page's socket is followed there; the DOM takes
// over only when the socket stays silent longer than the page itself waits
// (its own defaults: 5 s for the first message after subscribing, doubled
// here for a loaded machine, and 30 s between two), as when the socket's
// messages cannot be seen.
const (
	socketFirstSilence = 10 * time.Second
	socketSilence      = 30 * time.Second
)

func socketLost(ss streamState) bool {
	if !ss.res.Handoff || !ss.ended {
		return false
	}
	if ss.socketItems == 0 {
		return ss.socketQuiet > socketFirstSilence
	}
	return ss.socketQuiet > socketSilence
}

// streamLossGrace is how long a cut stream waits for its tab or browser to
// report its end: the capture can see the response fail a moment before
// the DevTools connection drops.
const streamLossGrace = time.Second

// TabLost implements job.TabWatcher: nil while the tab is usable, else the
// envelope that ended it (BrowserDisconnected when the browser went away,
// TargetCrashed, TargetNotFound).
func (w *Web) TabLost(ctx context.Context) error { return w.Page.Lost(ctx, 0) }

// settle gives the page a moment (at most 3 s) to render the turn the
// stream completed, so that the DOM's text and model attribute can serve as
// a second witness. The turn is complete either way.
// It reports whether the page showed the turn finished.
func (w *Web) settle(ctx context.Context, t *Turn) bool {
	deadline := time.Now().Add(3 * time.Second)
	for {
		st, err := w.state(ctx)
		if err != nil {
			return false
		}
		t.domText, t.domSlug = st.Text, st.Slug
		if st.HasTurn && !st.Stop && !st.Busy && st.Finished {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		select {
		case <-ctx.Done():
			return false
		case <-time.After(w.Poll):
		}
	}
}

// disagree fails closed when the page's finished answer strictly extends
// the decoded stream's: the decoder lost text (the site changed its stream
// format), and returning the shorter text would be a wrong answer.
func disagree(s site.Site, streamText, domText string) error {
	st, dt := collapse(streamText), collapse(domText)
	if st == "" || len(dt) <= len(st) || !strings.HasPrefix(dt, st) {
		return nil
	}
	return errs.New(errs.GenerationError, "the decoded %s stream holds %d characters but the page shows %d: the stream format may have changed", s.Name, utf8.RuneCountInString(st), utf8.RuneCountInString(dt)).
		WithEvidence("stream_chars", strconv.Itoa(utf8.RuneCountInString(st))).
		WithEvidence("page_chars", strconv.Itoa(utf8.RuneCountInString(dt))).
		WithHint("read answers from the page until Ferry is updated: set \"stream\": {\"disabled\": true} for site %q in settings", s.ID)
}

// streamErr prefers the page's own, more specific notice (rate limit, usage
// cap, conversation too long) over a generic error the stream reported,
// giving the page a moment to render it (1.5 s, and at least three looks).
func (w *Web) streamErr(ctx context.Context, e *errs.Envelope) error {
	if e.Code == errs.UsageCap && e.Evidence["resets_at"] == "" {
		return w.capReset(ctx, e)
	}
	if e.Code != errs.GenerationError {
		return e
	}
	deadline := time.Now().Add(1500 * time.Millisecond)
	for look := 0; look < 3 || time.Now().Before(deadline); look++ {
		if r, err := w.Interstitial(ctx); err == nil && r.Code != "" && r.Code != errs.GenerationError {
			return r.Err()
		}
		select {
		case <-ctx.Done():
			return e
		case <-time.After(w.Poll):
		}
	}
	return e
}

// capReset completes a usage cap the stream reported without a reset time
// with the one the page's notice names, giving the page a moment to render
// it (at most 5 s, and at least three looks, however slow a loaded machine
// makes each); else the stream's envelope stands. A cap is never retried
// either way.
func (w *Web) capReset(ctx context.Context, e *errs.Envelope) error {
	deadline := time.Now().Add(5 * time.Second)
	for look := 0; look < 3 || time.Now().Before(deadline); look++ {
		if r, err := w.Interstitial(ctx); err == nil && r.Kind == interstitial.UsageCap && !r.ResetAt.IsZero() {
			return errs.From(r.Err()).WithEvidence("stream_error", e.Message)
		}
		select {
		case <-ctx.Done():
			return e
		case <-time.After(w.Poll):
		}
	}
	return e
}

// refusal is the envelope for a send the site refused with an HTTP status
// and no notice the detector recognised.
func refusal(s site.Site, status int) error {
	code := errs.GenerationError
	switch status {
	case 401, 403:
		code = errs.LoginRequired
	case 429:
		code = errs.RateLimited
	}
	return errs.New(code, "%s refused the prompt with HTTP %d", s.Name, status).WithEvidence("status", strconv.Itoa(status))
}

// Extract implements Adapter: the stream's text when the stream completed
// the turn (Markdown, code blocks from its fences), else the page's text and
// code elements.
func (w *Web) Extract(ctx context.Context, t *Turn) (*Answer, error) {
	ans := &Answer{}
	if res, ok := t.Stream(); ok && t.source == "stream" {
		ans.Text, ans.Source = res.Text, "stream"
		ans.CodeBlocks = CodeBlocks(res.Text)
		ans.ConversationID, ans.MessageID = res.ConversationID, res.MessageID
		ans.Model = ModelProof{Slug: res.Model, Source: "stream:" + res.ModelSource}
		if res.Rerouted != "" {
			ans.Warnings = append(ans.Warnings, fmt.Sprintf("%s answered from %s, not %s, the model the turn was sent to: the site rerouted it (a silent downgrade)", w.Env.Site.Name, res.Model, res.Rerouted))
		}
	} else {
		ans.Text, ans.Source = t.domText, "dom"
		var blocks []CodeBlock
		if err := w.Page.EvalInto(ctx, &blocks, codeBlocksJS, w.spec()); err != nil {
			return nil, err
		}
		ans.CodeBlocks = blocks
	}
	if t.domSlug != "" {
		ans.Model.DOMSlug = t.domSlug
		if ans.Model.Slug == "" {
			ans.Model.Slug, ans.Model.Source = t.domSlug, "dom:data-message-model-slug"
		}
	}
	if ans.CodeBlocks == nil {
		ans.CodeBlocks = []CodeBlock{}
	}
	if strings.TrimSpace(ans.Text) == "" {
		return nil, errs.New(errs.AnswerEmpty, "%s finished the turn without answer text", w.Env.Site.Name).WithEvidence("source", ans.Source)
	}
	return ans, nil
}
