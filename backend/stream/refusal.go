package stream

import "github.com/ferrydesk/ferry/backend/errs"

// RefusalReader is implemented by a decoder that can read the body of a
// send the site refused with an HTTP error status (Claude's 429 whose
// message is exceeded_limit with resetsAt, Grok's 429
// {"code":8,"message":"Too many requests"}). Refusal returns the site's
// envelope for status and the whole body (a usage cap with its reset time,
// a rate limit, a login), or nil when the body says nothing the decoder
// knows; the caller then reads the page, and the status alone last.
type RefusalReader interface {
	Refusal(status int, body []byte) *errs.Envelope
}
