package job

import (
	"errors"
	"time"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
)

// Sentinels, matched with errors.Is.
var (
	// ErrIllegalTransition: the state machine forbids the move.
	ErrIllegalTransition = errors.New("illegal state transition")
)

// Origin says who started a run.
type Origin string

// The origins.
const (
	OriginDesktop Origin = "desktop"
	OriginCLI     Origin = "cli"
	OriginAgent   Origin = "agent"
)

// Approval is the approval state of a run an agent client asked for.
type Approval string

// The approval states; runs that need none carry ApprovalNotRequired.
const (
	ApprovalNotRequired Approval = "not_required"
	ApprovalPending     Approval = "pending"
	ApprovalApproved    Approval = "approved"
	ApprovalRejected    Approval = "rejected"
)

// Artifact is one file a run produced (code mode): its descriptor and the
// verifier's verdict.
type Artifact struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	Bytes   int64  `json:"bytes,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
}

// Receipt is one proof layer of a run (routing, transport, content,
// download) as JSON-ready data, kept beside the output and in the store.
type Receipt struct {
	Layer string            `json:"layer"`
	At    time.Time         `json:"at"`
	Data  map[string]string `json:"data"`
}

// Fingerprint identifies one submission: a hash of the site, the
// conversation, the prompt and the moment of the send. It is journaled with
// the submitting state, before the click, and confirmed after.
type Fingerprint struct {
	Hash         string    `json:"hash"`
	At           time.Time `json:"at"`
	Conversation string    `json:"conversation,omitempty"`
	Confirmed    bool      `json:"confirmed"`
	// ConfirmedBy says how the send was confirmed: "submit" (the adapter saw
	// the user turn) or "reattach:found_turn".
	ConfirmedBy string `json:"confirmedBy,omitempty"`
	// RetryOf is the hash of the submission this one intentionally repeats
	// under an interstitial policy (Reason: "rate_limit" or
	// "conversation_too_long"), so that reattach never takes it for an
	// accidental double send. NotBefore is the end of the rate-limit
	// cooldown: nothing is sent before it, and a reattach resumes the wait.
	RetryOf   string    `json:"retry_of,omitempty"`
	Reason    string    `json:"reason,omitempty"`
	NotBefore time.Time `json:"not_before,omitzero"`
}

// Session is the record of one run. Its JSON form is what the store, the
// hub and `ferry sessions show --json` carry; it holds no secret (tokens and
// cookies never reach it).
type Session struct {
	ID              string              `json:"id"`
	Site            string              `json:"site"`
	ModelRequested  string              `json:"modelRequested,omitempty"`
	Model           provider.ModelProof `json:"model"`
	TargetID        string              `json:"targetId,omitempty"`
	ConversationURL string              `json:"conversationUrl,omitempty"`
	ConversationID  string              `json:"conversationId,omitempty"`
	MessageID       string              `json:"messageId,omitempty"`
	Prompt          string              `json:"prompt"`
	// Task is the user's own words when Prompt was composed around them
	// (code mode wraps them in a contract and a delivery): what the run is
	// titled by. Empty when Prompt is the user's text itself.
	Task     string `json:"task,omitempty"`
	Template string `json:"template,omitempty"`
	Contract string `json:"contract,omitempty"`
	// Parent is the run this one follows up (its conversation continued);
	// Thread is the first run of that conversation's thread (both empty
	// for a run that follows none).
	Parent   string    `json:"parent,omitempty"`
	Thread   string    `json:"thread,omitempty"`
	Created  time.Time `json:"created"`
	Updated  time.Time `json:"updated"`
	Deadline time.Time `json:"deadline,omitzero"`
	State    State     `json:"state"`
	// StateBefore is the state a failed, cancelled or stale run was in when
	// it stopped (what a rebind restores).
	StateBefore State          `json:"stateBefore,omitempty"`
	Warnings    []string       `json:"warnings,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
	Answer      string         `json:"answer,omitempty"`
	// AnswerPartial says Answer is only what had streamed when the user
	// cancelled the run (see Collectable): the site may hold the rest.
	AnswerPartial bool                 `json:"answerPartial,omitempty"`
	CodeBlocks    []provider.CodeBlock `json:"codeBlocks,omitempty"`
	AnswerSource  string               `json:"answerSource,omitempty"`
	Routing       *provider.Routing    `json:"routing,omitempty"`
	Transport     *provider.Transport  `json:"transport,omitempty"`
	Content       *provider.Content    `json:"content,omitempty"`
	// Timings are the phases of a run driven start to end by one process
	// (absent for a reattached run).
	Timings     *provider.Timings `json:"timings,omitempty"`
	Fingerprint *Fingerprint      `json:"fingerprint,omitempty"`
	Artifacts   []Artifact        `json:"artifacts,omitempty"`
	Receipts    []Receipt         `json:"receipts,omitempty"`
	Origin      Origin            `json:"origin"`
	Approval    Approval          `json:"approval"`
	// CodeMode says the run expects artifacts: extracted leads to
	// artifacts_retrieved rather than done.
	CodeMode bool `json:"codeMode,omitempty"`
	// Attachments are the files sent with the prompt (names as sent,
	// sizes, sha256), checked before the run was created; the prompt is
	// sent only once each is proven in the composer.
	Attachments []attach.File `json:"attachments,omitempty"`
	// Seq is the number of journal entries written for the run.
	Seq uint64 `json:"seq"`
}

// Title is what a run is called by: the user's own words (Task when the
// prompt sent was composed around them, else the prompt).
func Title(s *Session) string {
	if s.Task != "" {
		return s.Task
	}
	return s.Prompt
}

// Entry is one journal line: the state a run entered, when, and why.
type Entry struct {
	Seq         uint64         `json:"seq"`
	State       State          `json:"state"`
	At          time.Time      `json:"at"`
	Note        string         `json:"note,omitempty"`
	Fingerprint *Fingerprint   `json:"fingerprint,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
}

// Result is the answer of the run with its proof, in the shape of
// provider.Result (what `ferry ask --json` prints). It is what the run
// recorded: a run that did not reach done may lack the answer or proofs.
func (s *Session) Result() provider.Result {
	res := provider.Result{Site: s.Site, Answer: s.Answer, CodeBlocks: s.CodeBlocks, Model: s.Model,
		ConversationID: s.ConversationID, MessageID: s.MessageID, Warnings: s.Warnings}
	if res.CodeBlocks == nil {
		res.CodeBlocks = []provider.CodeBlock{}
	}
	if s.Routing != nil {
		res.Routing = *s.Routing
	}
	if s.Transport != nil {
		res.Transport = *s.Transport
	}
	if s.Content != nil {
		res.Content = *s.Content
	}
	if s.Timings != nil {
		res.Timings = *s.Timings
	}
	return res
}
