package record

import "github.com/ferrydesk/ferry/backend/errs"

// Sent says whether a run's prompt may be in its site's conversation:
// what decides whether sending the same request again could put it there
// twice.
type Sent string

// The answers of Run.PromptSent.
const (
	// SentNo: the run stopped before its send (or the send was
	// proven not to leave): nothing is in the conversation.
	SentNo Sent = "no"
	// SentMaybe: the run stopped while its prompt was being sent, or
	// its record cannot tell: the prompt may be in the conversation.
	SentMaybe Sent = "maybe"
	// SentYes: the site took the prompt.
	SentYes Sent = "yes"
)

// PromptSent reports whether run r's prompt may be in its site's
// conversation, from its record: the envelope's "sent" evidence when the
// failure proved it, else the step the run stopped in (StateBefore for a
// failed, cancelled or stale run), its fingerprint (on disk before the
// click, confirmed once the site showed the user turn) and its answer.
func (r *Run) PromptSent() Sent {
	if r.Error != nil {
		switch r.Error.Evidence["sent"] {
		case "false":
			return SentNo
		case "yes":
			return SentYes
		}
	}
	at := r.State
	if (at.Terminal() || at == StateStale) && r.StateBefore != "" {
		at = r.StateBefore
	}
	switch {
	case at.Sent() || (r.Fingerprint != nil && r.Fingerprint.Confirmed) || r.Answer != "":
		return SentYes
	case r.Fingerprint != nil || at == StateSubmitting:
		return SentMaybe
	case at.Unsent():
		return SentNo
	}
	return SentMaybe
}

// Collectable reports whether the user cancelled run r while its answer
// streamed: the run is cancelled, its Answer holds what had streamed
// (AnswerPartial), and the site may still hold the whole answer, which a
// reattach collects without sending the prompt again.
func (r *Run) Collectable() bool {
	return r.State == StateCancelled && (r.StateBefore == StateSubmitted || r.StateBefore == StateStreaming)
}

// LostItsTab reports whether the run stopped because its tab or browser
// went away after the prompt was sent (or while it was being sent) and its
// conversation's address is recorded: its answer is collected by opening
// that conversation in a new tab, in whatever browser runs now.
func (r *Run) LostItsTab() bool {
	return r.Error != nil && TabEnded(r.Error.Code) && r.ConversationURL != "" &&
		(r.State.Sent() || r.State == StateSubmitting) && r.State.Active()
}

// TabEnded reports whether code says a run's tab can no longer be used:
// the browser went away, or the tab crashed or closed.
func TabEnded(code errs.Code) bool {
	return code == errs.BrowserDisconnected || code == errs.TargetCrashed || code == errs.TargetNotFound
}
