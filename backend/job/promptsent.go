package job

// Sent says whether a run's prompt may be in its site's conversation:
// what decides whether sending the same request again could put it there
// twice.
type Sent string

// The answers of Session.PromptSent.
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

// PromptSent reports whether run s's prompt may be in its site's
// conversation, from its record: the envelope's "sent" evidence when the
// failure proved it, else the step the run stopped in (StateBefore for a
// failed, cancelled or stale run), its fingerprint (on disk before the
// click, confirmed once the site showed the user turn) and its answer.
func (s *Session) PromptSent() Sent {
	if s.Error != nil {
		switch s.Error.Evidence["sent"] {
		case "false":
			return SentNo
		case "yes":
			return SentYes
		}
	}
	at := s.State
	if (at.Terminal() || at == StateStale) && s.StateBefore != "" {
		at = s.StateBefore
	}
	switch {
	case at.Sent() || (s.Fingerprint != nil && s.Fingerprint.Confirmed) || s.Answer != "":
		return SentYes
	case s.Fingerprint != nil || at == StateSubmitting:
		return SentMaybe
	case at.beforeSend():
		return SentNo
	}
	return SentMaybe
}
