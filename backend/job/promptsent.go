package job

import "github.com/ferrydesk/ferry/backend/record"

// Sent says whether a run's prompt may be in its site's conversation
// (Session.PromptSent).
type Sent = record.Sent

// The answers of Session.PromptSent.
const (
	SentNo    = record.SentNo
	SentMaybe = record.SentMaybe
	SentYes   = record.SentYes
)
