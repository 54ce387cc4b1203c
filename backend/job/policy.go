package job

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// The interstitial policies, as Fingerprint.Reason and the "kind" of a
// policy receipt name them.
const (
	// PolicyRateLimit: the site refused the send as too many requests.
	// Answer its modal ("Got it"), wait the cooldown, send once more on
	// the same tab.
	PolicyRateLimit = "rate_limit"
	// PolicyRollover: the conversation reached its maximum length. Start a
	// new chat (else open a fresh tab) and send the prompt there once.
	PolicyRollover = "conversation_too_long"
	// PolicyReload: the site refused the send because the tab holds an
	// outdated build of its web client (DeepSeek's CLIENT_VERSION_TOO_LOW;
	// nothing was sent). Reload the tab and send the prompt there once.
	PolicyReload = provider.ReasonClientOutdated
)

// RunnerOption configures NewRunner.
type RunnerOption func(*Runner)

// WithRateLimitCooldown sets the wait between a rate-limit refusal and the
// one retry (default interstitial.DefaultCooldown, 300 s). A d <= 0 keeps
// the default.
func WithRateLimitCooldown(d time.Duration) RunnerOption {
	return func(r *Runner) {
		if d > 0 {
			r.policy.cooldown = d
		}
	}
}

// FreshTab opens a new tab on the run's site and returns its adapter. The
// conversation-too-long policy calls it at most once, when the adapter
// cannot start a new chat in its own tab. The caller owns the tab.
type FreshTab func(ctx context.Context, siteID string) (provider.Adapter, error)

// WithFreshTab gives the Runner a way to open a fresh tab for the
// conversation-too-long policy.
func WithFreshTab(f FreshTab) RunnerOption { return func(r *Runner) { r.policy.freshTab = f } }

// WithoutRetry turns the interstitial policies off: a rate limit or a
// conversation too long stops the run with the site's envelope, after its
// one send, instead of the policy's one retry. The conformance suite runs
// this way, to judge each adapter's envelope as the site gave it.
func WithoutRetry() RunnerOption { return func(r *Runner) { r.policy.off = true } }

type policyConfig struct {
	cooldown time.Duration
	freshTab FreshTab
	off      bool // see WithoutRetry
}

// policyOf names the policy that answers a send failure, or "".
func policyOf(err error) string {
	switch errs.CodeOf(err) {
	case errs.RateLimited:
		return PolicyRateLimit
	case errs.ConversationTooLong:
		return PolicyRollover
	case errs.GenerationError:
		if errs.From(err).Evidence["reason"] == provider.ReasonClientOutdated {
			return PolicyReload
		}
	}
	return ""
}

// sendFailed handles a failure of Submit or Wait: an interstitial with a
// policy gets its one retry (unless WithoutRetry); anything else, or a run
// that already used its retry, stops with the envelope.
func (r *Runner) sendFailed(ctx context.Context, s *Session, a provider.Adapter, cause error, clk *runClock) (*Session, error) {
	kind := policyOf(cause)
	if kind == "" || r.policy.off || ctx.Err() != nil {
		return r.stop(ctx, s, cause)
	}
	if fp := s.Fingerprint; fp != nil && fp.RetryOf != "" {
		return r.stop(ctx, s, exhausted(cause, fp, r.cooldownOf(s)))
	}
	if s.State == StateSubmitting {
		// Submit itself met the interstitial: the journal says so before
		// the retry goes back to submitting with its own fingerprint.
		var err error
		if s, err = r.move(ctx, s.ID, StateSubmitted, "the site answered the send with "+string(errs.CodeOf(cause)), func(x *Session) {
			if x.Fingerprint != nil {
				x.Fingerprint.ConfirmedBy = "interstitial:" + string(errs.CodeOf(cause))
			}
		}); err != nil {
			return s, err
		}
	}
	switch kind {
	case PolicyRateLimit:
		return r.rateLimitRetry(ctx, s, a, cause, clk)
	case PolicyReload:
		return r.reloadRetry(ctx, s, a, cause, clk)
	}
	return r.rollover(ctx, s, a, cause, clk)
}

// cooldownOf is the cooldown the run's rate-limit retry waited, from its
// policy receipt: a reattaching process (with its own settings) did not
// choose it. Without a receipt it is the Runner's.
func (r *Runner) cooldownOf(s *Session) time.Duration {
	for i := len(s.Receipts) - 1; i >= 0; i-- {
		rc := s.Receipts[i]
		if rc.Layer != "policy" || rc.Data["kind"] != PolicyRateLimit {
			continue
		}
		if ms, err := strconv.ParseInt(rc.Data["cooldown_ms"], 10, 64); err == nil && ms > 0 {
			return time.Duration(ms) * time.Millisecond
		}
		break
	}
	return r.policy.cooldown
}

// exhausted is the envelope of a run whose one retry met the same
// interstitial again: the site's own envelope (with its reset time when the
// page named one) saying that the retry was spent.
func exhausted(cause error, fp *Fingerprint, cooldown time.Duration) error {
	env := errs.From(cause)
	msg := env.Message
	switch fp.Reason {
	case PolicyRateLimit:
		msg = fmt.Sprintf("still rate limited after waiting %s and retrying once: %s", cooldown, env.Message)
	case PolicyRollover:
		msg = fmt.Sprintf("the new chat also reported: %s", env.Message)
	case PolicyReload:
		msg = fmt.Sprintf("still refused after reloading the tab once: %s", env.Message)
	}
	out := errs.Wrap(cause, env.Code, "%s", msg).WithEvidence("retried", "once").WithEvidence("retry_of", fp.RetryOf)
	for k, v := range env.Evidence {
		out.WithEvidence(k, v)
	}
	if at := env.Evidence["resets_at"]; at != "" {
		return out.WithHint("the limit resets at %s: run the prompt again after that", at)
	}
	switch fp.Reason {
	case PolicyRateLimit:
		return out.WithHint("the site named no reset time: wait a few minutes, then run the prompt again")
	case PolicyReload:
		return out.WithHint("close the %s tab and open the site afresh (or clear its cached files), then run the prompt again", firstNonEmpty(env.Evidence["site"], "site's"))
	}
	return out.WithHint("start a new chat yourself and run the prompt again")
}

// retryFingerprint is the journaled intent of the one intentional second
// submission: a new hash, linked to the first.
func (r *Runner) retryFingerprint(s *Session, reason, conversation string, notBefore time.Time) *Fingerprint {
	at := r.now().UTC()
	prev := ""
	if s.Fingerprint != nil {
		prev = s.Fingerprint.Hash
	}
	return &Fingerprint{Hash: FingerprintHash(s.Site, conversation, s.Prompt, at), At: at, Conversation: conversation,
		RetryOf: prev, Reason: reason, NotBefore: notBefore}
}

// carryRetry keeps the retry link when a reattach resends a run whose
// pending submission was a retry, so the retry stays the only one.
func carryRetry(prev, next *Fingerprint) {
	if prev != nil && prev.RetryOf != "" {
		next.RetryOf, next.Reason, next.NotBefore = prev.RetryOf, prev.Reason, prev.NotBefore
	}
}

// acknowledge clicks the button of the rate-limit modal the page shows
// ("Got it"). It reports the label clicked ("" when no modal was up, or the
// adapter cannot click): the click is best effort, the page is checked
// again before anything is typed.
func acknowledge(ctx context.Context, a provider.Adapter) string {
	act, ok := a.(provider.InterstitialActor)
	if !ok {
		return ""
	}
	res, err := act.Interstitial(ctx)
	if err != nil || res.Kind != interstitial.RateLimit {
		return ""
	}
	label := provider.AckLabel(res)
	if act.Acknowledge(ctx, label) != nil {
		return ""
	}
	return label
}

// sleepUntil waits until t or the end of ctx (then the Timeout or
// Cancelled envelope).
func sleepUntil(ctx context.Context, t time.Time, what string) error {
	d := time.Until(t)
	if d <= 0 {
		return nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return errs.Wrap(ctx.Err(), codeOfCtx(ctx), "the run ended while %s", what)
	}
}

func codeOfCtx(ctx context.Context) errs.Code {
	if ctx.Err() == context.DeadlineExceeded {
		return errs.Timeout
	}
	return errs.Cancelled
}

// rateLimitRetry answers the modal, journals the retry (state submitting,
// a fingerprint linked to the refused one, not before the cooldown's end),
// waits the cooldown and sends the prompt once more on the same tab.
func (r *Runner) rateLimitRetry(ctx context.Context, s *Session, a provider.Adapter, cause error, clk *runClock) (*Session, error) {
	cooldown := r.policy.cooldown
	label := acknowledge(ctx, a)
	notBefore := r.now().UTC().Add(cooldown)
	if dl, ok := ctx.Deadline(); ok && dl.Before(notBefore) {
		return r.stop(ctx, s, errs.From(cause).WithEvidence("cooldown", cooldown.String()).
			WithHint("the run's deadline comes before the end of the %s cooldown: run the prompt again later, with a longer timeout", cooldown))
	}
	fp := r.retryFingerprint(s, PolicyRateLimit, s.ConversationURL, notBefore)
	clicked := "no modal button was clicked"
	if label != "" {
		clicked = fmt.Sprintf("clicked %q", label)
	}
	note := fmt.Sprintf("rate limited: %s; cooling down %s, then sending once more (retry of %s)", clicked, cooldown, short(fp.RetryOf))
	var err error
	if s, err = r.move(ctx, s.ID, StateSubmitting, note, func(x *Session) {
		x.Fingerprint = fp
		x.Warnings = append(x.Warnings, fmt.Sprintf("the site said too many requests: waited %s and sent the prompt once more on the same tab", cooldown))
		x.Receipts = append(x.Receipts, Receipt{Layer: "policy", At: r.now().UTC(), Data: map[string]string{
			"kind": PolicyRateLimit, "trigger": string(errs.CodeOf(cause)), "action": label, "cooldown_ms": fmt.Sprint(cooldown.Milliseconds()),
			"not_before": notBefore.Format(time.RFC3339Nano), "retry_of": fp.RetryOf, "fingerprint": fp.Hash, "tab": a.TargetID()}})
	}); err != nil {
		return s, err
	}
	if err := sleepUntil(ctx, notBefore, "cooling down after a rate limit"); err != nil {
		return r.stop(ctx, s, err)
	}
	// A modal that came back during the cooldown is answered once more;
	// Ready then refuses any interstitial still in the way.
	acknowledge(ctx, a)
	return r.resend(ctx, s, a, clk)
}

// reloadRetry journals the resubmit (state submitting, a fingerprint linked
// to the refused one, in the same conversation), reloads the tab so that
// it loads the site's current web client, and sends the prompt once more.
func (r *Runner) reloadRetry(ctx context.Context, s *Session, a provider.Adapter, cause error, clk *runClock) (*Session, error) {
	rl, ok := a.(provider.Reloader)
	if !ok {
		return r.stop(ctx, s, cause)
	}
	fp := r.retryFingerprint(s, PolicyReload, s.ConversationURL, time.Time{})
	note := fmt.Sprintf("the tab holds an outdated web client: reloading it and sending once more (retry of %s)", short(fp.RetryOf))
	var err error
	if s, err = r.move(ctx, s.ID, StateSubmitting, note, func(x *Session) {
		x.Fingerprint = fp
		x.Warnings = append(x.Warnings, "the site refused the prompt because its tab held an outdated web client (nothing was sent): reloaded the tab and sent the prompt once more")
		x.Receipts = append(x.Receipts, Receipt{Layer: "policy", At: r.now().UTC(), Data: map[string]string{
			"kind": PolicyReload, "trigger": string(errs.CodeOf(cause)), "action": "reload",
			"retry_of": fp.RetryOf, "fingerprint": fp.Hash, "tab": a.TargetID()}})
	}); err != nil {
		return s, err
	}
	if err := rl.Reload(ctx); err != nil {
		return r.stop(ctx, s, errs.From(cause).WithEvidence("reload", errs.From(err).Message))
	}
	return r.resend(ctx, s, a, clk)
}

// rollover journals the resubmit (state submitting, a fingerprint linked
// to the first, for a new conversation), starts a new chat in the tab (else
// opens a fresh tab once), and sends the prompt there once.
func (r *Runner) rollover(ctx context.Context, s *Session, a provider.Adapter, cause error, clk *runClock) (*Session, error) {
	prevConv := s.ConversationURL
	if l, ok := a.(ConversationLocator); ok {
		if u, err := l.ConversationURL(ctx); err == nil && u != "" {
			prevConv = site.Redact(u)
		}
	}
	fp := r.retryFingerprint(s, PolicyRollover, "", time.Time{})
	note := fmt.Sprintf("conversation too long: starting a new chat and sending once more (retry of %s)", short(fp.RetryOf))
	var err error
	if s, err = r.move(ctx, s.ID, StateSubmitting, note, func(x *Session) {
		x.Fingerprint = fp
		x.Receipts = append(x.Receipts, Receipt{Layer: "policy", At: r.now().UTC(), Data: map[string]string{
			"kind": PolicyRollover, "trigger": string(errs.CodeOf(cause)), "action": "Start new chat",
			"previous_conversation": prevConv, "retry_of": fp.RetryOf, "fingerprint": fp.Hash, "tab": a.TargetID()}})
	}); err != nil {
		return s, err
	}
	how, err := r.newChat(ctx, s, a)
	if err != nil {
		return r.stop(ctx, s, errs.From(cause).WithEvidence("new_chat", errs.From(err).Message).
			WithHint("start a new chat yourself and run the prompt again"))
	}
	if how.adapter != a {
		a = how.adapter
		if s, err = r.repo.Update(ctx, s.ID, "", func(x *Session) error {
			x.TargetID = a.TargetID()
			if x.Routing != nil {
				x.Routing.ControlledTabID, x.Routing.TabWasCreated = a.TargetID(), true
				x.Routing.Mismatch = x.Routing.RequestedTabID != "" && x.Routing.RequestedTabID != a.TargetID()
			}
			return nil
		}); err != nil {
			return s, err
		}
	}
	out, err := r.resend(ctx, s, a, clk)
	if out == nil || err != nil {
		return out, err
	}
	// The result names the rollover and the conversation that answered.
	if upd, uerr := r.repo.Update(context.WithoutCancel(ctx), out.ID, "", func(x *Session) error {
		for i := len(x.Receipts) - 1; i >= 0; i-- {
			if x.Receipts[i].Layer == "policy" && x.Receipts[i].Data["kind"] == PolicyRollover {
				x.Receipts[i].Data["new_conversation"] = x.ConversationURL
				x.Receipts[i].Data["new_conversation_id"] = x.ConversationID
				x.Receipts[i].Data["new_chat"] = how.way
				break
			}
		}
		x.Warnings = append(x.Warnings, fmt.Sprintf("the conversation %s reached its maximum length: started a new chat (%s) and sent the prompt there once; the answer is in %s",
			firstNonEmpty(prevConv, "(unknown)"), how.way, firstNonEmpty(x.ConversationURL, "the new conversation")))
		return nil
	}); uerr == nil {
		out = upd
	}
	return out, nil
}

type newChatWay struct {
	adapter provider.Adapter
	way     string // "same_tab" or "fresh_tab"
}

// newChat starts a new chat in a's tab (the adapter's StartNewChat), else
// opens one fresh tab, and waits until the page is ready.
func (r *Runner) newChat(ctx context.Context, s *Session, a provider.Adapter) (newChatWay, error) {
	var last error = errs.New(errs.CapabilityMissing, "the %s adapter cannot start a new chat", s.Site)
	if ns, ok := a.(provider.NewChatStarter); ok {
		if err := ns.StartNewChat(ctx); err != nil {
			last = err
		} else if err := a.Ready(ctx); err != nil {
			last = err
		} else {
			return newChatWay{adapter: a, way: "same_tab"}, nil
		}
	}
	if r.policy.freshTab == nil || ctx.Err() != nil {
		return newChatWay{}, last
	}
	fresh, err := r.policy.freshTab(ctx, s.Site)
	if err != nil {
		return newChatWay{}, err
	}
	if err := fresh.Ready(ctx); err != nil {
		return newChatWay{}, err
	}
	return newChatWay{adapter: fresh, way: "fresh_tab"}, nil
}

// resend types and sends the prompt of a run journaled at submitting with
// its retry fingerprint, then collects the answer. Ready refuses a page
// that shows any interstitial, and Compose checks again: nothing is typed
// into such a page.
func (r *Runner) resend(ctx context.Context, s *Session, a provider.Adapter, clk *runClock) (*Session, error) {
	if err := a.Ready(ctx); err != nil {
		return r.stop(ctx, s, err)
	}
	// The refused send used up the composer's attachments: they go again.
	s, err := r.attach(ctx, s, a)
	if err != nil {
		return r.stop(ctx, s, err)
	}
	if err := a.Compose(ctx, s.Prompt); err != nil {
		return r.stop(ctx, s, err)
	}
	s, err = r.stampSend(ctx, s)
	if err != nil {
		return s, err
	}
	turn, err := a.Submit(ctx, s.Prompt)
	if err != nil {
		if errs.Has(err, errs.SendUnconfirmed) {
			return r.unconfirmed(ctx, s, err)
		}
		return r.sendFailed(ctx, s, a, err, clk)
	}
	if clk != nil {
		clk.submitted = r.now()
	}
	if s, err = r.move(ctx, s.ID, StateSubmitted, "user turn confirmed ("+s.Fingerprint.Reason+" retry)", func(x *Session) {
		x.Fingerprint.Confirmed, x.Fingerprint.ConfirmedBy = true, "submit"
	}); err != nil {
		turn.Close()
		return s, err
	}
	return r.collect(ctx, s, a, turn, clk)
}

// resumeRetry is Reattach's part of the rate-limit policy, for a run
// stopped at submitting with its retry journaled but not confirmed: it
// waits out the rest of the cooldown and answers a modal still up. When the
// retry's send never began (its fingerprint still carries the moment the
// cooldown began: resend stamps the moment of the send, after the cooldown,
// just before the click), it sends the one retry itself and returns
// handled: the conversation is not searched, since the refused send's own
// user turn holds the same prompt and would be taken for the retry. A retry
// whose send may have begun is left to Reattach's search (handled false).
// Errors: Timeout or Cancelled when ctx ends during the wait; then the
// run's own failures, as in Run.
func (r *Runner) resumeRetry(ctx context.Context, s *Session, a provider.Adapter, f *Finding) (*Session, bool, error) {
	fp := s.Fingerprint
	if s.State != StateSubmitting || fp == nil || fp.RetryOf == "" || fp.Confirmed || fp.NotBefore.IsZero() {
		return s, false, nil
	}
	if left := time.Until(fp.NotBefore); left > 0 {
		r.publish(Event{Session: s.ID, Kind: EventFinding, At: r.now().UTC(), Finding: f,
			Note: fmt.Sprintf("stopped during a rate-limit cooldown: waiting the remaining %s before the retry", left.Round(time.Millisecond))})
		if err := sleepUntil(ctx, fp.NotBefore, "resuming a rate-limit cooldown"); err != nil {
			return s, true, err
		}
	}
	acknowledge(ctx, a)
	if !retryUnsent(fp) {
		return s, false, nil
	}
	f.Action = "send"
	f.Detail = fmt.Sprintf("stopped during the rate-limit cooldown, before the retry was sent (retry of %s): sending the one retry now", short(fp.RetryOf))
	r.finding(s.ID, f)
	ctx, cancel := r.deadline(ctx, s)
	defer cancel()
	out, err := r.resend(ctx, s, a, nil)
	return out, true, err
}

// retryUnsent reports whether a rate-limit retry's send never began: resend
// stamps the fingerprint with the moment of the send, which is never before
// the end of the cooldown.
func retryUnsent(fp *Fingerprint) bool {
	return fp != nil && fp.RetryOf != "" && !fp.Confirmed && !fp.NotBefore.IsZero() && fp.At.Before(fp.NotBefore)
}

// stampSend records, before the click of a rate-limit retry, that its send
// begins now: from here on a reattach looks for the retry's user turn
// instead of sending it.
func (r *Runner) stampSend(ctx context.Context, s *Session) (*Session, error) {
	if !retryUnsent(s.Fingerprint) {
		return s, nil
	}
	at := r.now().UTC()
	if at.Before(s.Fingerprint.NotBefore) {
		at = s.Fingerprint.NotBefore
	}
	return r.repo.Update(ctx, s.ID, "", func(x *Session) error {
		if x.Fingerprint != nil {
			x.Fingerprint.At = at
		}
		return nil
	})
}

// unconfirmed keeps a run whose send cannot be confirmed at submitting,
// for reattach to look for the turn before anything is sent again.
func (r *Runner) unconfirmed(ctx context.Context, s *Session, err error) (*Session, error) {
	out, uerr := r.repo.Update(context.WithoutCancel(ctx), s.ID, "", func(x *Session) error { x.Error = errs.From(err); return nil })
	if uerr != nil {
		return s, fmt.Errorf("%w (journal: %v)", err, uerr)
	}
	return out, errs.From(err).WithHint("run `ferry reattach --session %s`: it looks for the prompt before anything is sent again", s.ID)
}

func short(hash string) string {
	if len(hash) > 12 {
		return hash[:12]
	}
	return hash
}

func firstNonEmpty(ss ...string) string {
	for _, s := range ss {
		if s != "" {
			return s
		}
	}
	return ""
}
