// Package errs defines Ferry's error envelope: the one shape every failure
// takes on its way to the user, whether through the CLI, the desktop app or
// the local API. An envelope says where the run stopped (Stage), what went
// wrong in a stable machine-readable form (Code), what happened in words
// (Message) and what the user can do about it (RetryHint).
package errs

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// Stage names the part of a run in which an error arose.
type Stage string

// The stages of a run, as listed in docs/ARCHITECTURE.md.
const (
	StageComposer     Stage = "composer"
	StageSend         Stage = "send"
	StagePoll         Stage = "poll"
	StageArtifact     Stage = "artifact"
	StageSession      Stage = "session"
	StageInterstitial Stage = "interstitial"
	StageCapability   Stage = "capability"
	StagePolicy       Stage = "policy"
	StageBrowser      Stage = "browser"
	StageStore        Stage = "store"
	StageInput        Stage = "input"
	StageInternal     Stage = "internal"
)

// Envelope is a typed, user-facing error. The zero value is not useful: build
// envelopes with New or Wrap so that stage, hint and retryability come from
// the catalog.
type Envelope struct {
	Stage     Stage             `json:"stage"`
	Code      Code              `json:"code"`
	Message   string            `json:"message"`
	RetryHint string            `json:"retryHint,omitempty"`
	Retryable bool              `json:"retryable"`
	Evidence  map[string]string `json:"evidence,omitempty"`
	// Tabs are, for TabAmbiguous, the tabs the run could have used, so that
	// a face can offer them to pick from (the desktop does, in place).
	Tabs []TabCandidate `json:"tabs,omitempty"`

	cause error
}

// TabCandidate is one tab an ambiguous run could have used.
type TabCandidate struct {
	// TargetID is the tab's CDP TargetID, what a run pinned to it names.
	TargetID string `json:"targetId"`
	// URL is the tab's address without query, fragment or userinfo.
	URL   string `json:"url"`
	Title string `json:"title,omitempty"`
}

// New returns an envelope for code with the given message. Stage, retry hint
// and retryability are taken from the catalog; an unknown code panics, because
// it is a programming error that a test must catch.
func New(code Code, format string, args ...any) *Envelope {
	spec := mustSpec(code)
	return &Envelope{
		Stage:     spec.Stage,
		Code:      code,
		Message:   fmt.Sprintf(format, args...),
		RetryHint: spec.Hint,
		Retryable: spec.Retryable,
	}
}

// Wrap is New with an underlying cause, kept for errors.Is/As but never shown
// in the JSON form. A nil cause gives the same result as New.
func Wrap(cause error, code Code, format string, args ...any) *Envelope {
	e := New(code, format, args...)
	e.cause = cause
	return e
}

// Error returns "code: message".
func (e *Envelope) Error() string {
	return string(e.Code) + ": " + e.Message
}

// Unwrap returns the cause given to Wrap, if any.
func (e *Envelope) Unwrap() error { return e.cause }

// Is reports whether target is an envelope with the same code, so that
// errors.Is(err, errs.New(errs.StoreBusy, "")) works without comparing text.
func (e *Envelope) Is(target error) bool {
	t, ok := target.(*Envelope)
	return ok && t.Code == e.Code
}

// WithStage returns the envelope with its stage replaced (for codes raised in
// more than one stage, such as a timeout while polling or while fetching).
func (e *Envelope) WithStage(s Stage) *Envelope {
	e.Stage = s
	return e
}

// WithHint replaces the catalog's retry hint with a more specific one.
func (e *Envelope) WithHint(format string, args ...any) *Envelope {
	e.RetryHint = fmt.Sprintf(format, args...)
	return e
}

// WithEvidence records a fact that supports the diagnosis (a URL, a selector,
// a holder's pid). Evidence is shown to the user and stored with the run: never
// put a secret in it.
func (e *Envelope) WithEvidence(key, value string) *Envelope {
	if e.Evidence == nil {
		e.Evidence = map[string]string{}
	}
	e.Evidence[key] = value
	return e
}

// WithTab lists one more tab the run could have used (see Tabs). Like
// evidence, it is shown to the user: url must be redacted.
func (e *Envelope) WithTab(targetID, url, title string) *Envelope {
	e.Tabs = append(e.Tabs, TabCandidate{TargetID: targetID, URL: url, Title: title})
	return e
}

// Code returns the envelope code of err, or "" when err carries no envelope.
func CodeOf(err error) Code {
	var e *Envelope
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

// Has reports whether err carries an envelope with the given code.
func Has(err error, code Code) bool { return err != nil && CodeOf(err) == code }

// From turns any error into an envelope. An envelope anywhere in the chain is
// returned as is; context deadlines become Timeout and cancellations
// Cancelled; anything else is Internal with the error's text as message.
// From(nil) is nil.
func From(err error) *Envelope {
	if err == nil {
		return nil
	}
	var e *Envelope
	if errors.As(err, &e) {
		return e
	}
	switch {
	case errors.Is(err, context.DeadlineExceeded):
		return Wrap(err, Timeout, "the deadline passed before the work finished")
	case errors.Is(err, context.Canceled):
		return Wrap(err, Cancelled, "the work was cancelled")
	}
	return Wrap(err, Internal, "%s", err.Error())
}

// JSON returns the envelope's JSON form.
func (e *Envelope) JSON() []byte {
	b, _ := json.Marshal(e)
	return b
}

// Human renders the envelope for a terminal: the message, then the hint and
// evidence on indented lines, in a stable order.
func (e *Envelope) Human() string {
	var b strings.Builder
	fmt.Fprintf(&b, "error [%s/%s]: %s", e.Stage, e.Code, e.Message)
	if e.RetryHint != "" {
		fmt.Fprintf(&b, "\n  what to do: %s", e.RetryHint)
	}
	keys := make([]string, 0, len(e.Evidence))
	for k := range e.Evidence {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "\n  %s: %s", k, e.Evidence[k])
	}
	return b.String()
}
