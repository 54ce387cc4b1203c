package record

import (
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Run is the record of one run. Its JSON form is what the store, the hub
// and `ferry sessions show --json` carry; it holds no secret (tokens and
// cookies never reach it).
type Run struct {
	ID              string `json:"id"`
	Site            string `json:"site"`
	ModelRequested  string `json:"modelRequested,omitempty"`
	EffortRequested string `json:"effortRequested,omitempty"`
	// ToolRequested is the site's tool the run asked for ("web-search");
	// Tool proves it was switched on before the send.
	ToolRequested   string     `json:"toolRequested,omitempty"`
	Model           ModelProof `json:"model"`
	Tool            *ToolProof `json:"tool,omitempty"`
	TargetID        string     `json:"targetId,omitempty"`
	ConversationURL string     `json:"conversationUrl,omitempty"`
	ConversationID  string     `json:"conversationId,omitempty"`
	MessageID       string     `json:"messageId,omitempty"`
	Prompt          string     `json:"prompt"`
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
	AnswerPartial bool        `json:"answerPartial,omitempty"`
	CodeBlocks    []CodeBlock `json:"codeBlocks,omitempty"`
	AnswerSource  string      `json:"answerSource,omitempty"`
	Routing       *Routing    `json:"routing,omitempty"`
	Transport     *Transport  `json:"transport,omitempty"`
	Content       *Content    `json:"content,omitempty"`
	// Timings are the phases of a run driven start to end by one process
	// (absent for a reattached run).
	Timings     *Timings     `json:"timings,omitempty"`
	Fingerprint *Fingerprint `json:"fingerprint,omitempty"`
	Artifacts   []Artifact   `json:"artifacts,omitempty"`
	Receipts    []Receipt    `json:"receipts,omitempty"`
	Origin      Origin       `json:"origin"`
	Approval    Approval     `json:"approval"`
	// CodeMode says the run expects artifacts: extracted leads to
	// artifacts_retrieved rather than done.
	CodeMode bool `json:"codeMode,omitempty"`
	// Temporary says the run asked in a chat the site keeps no history of
	// (its tab opened on the site's temporary chat): this record is the
	// only one. Archived says the conversation was archived on the site
	// once the answer was safe here (--archive-after).
	Temporary bool `json:"temporary,omitempty"`
	Archived  bool `json:"archived,omitempty"`
	// ArchiveAfter and ConfirmPlan are what the run was asked to do once
	// its answer is safe (archive the conversation) and when a deep
	// research shows its plan (start it at once): journaled, so a reattach
	// does what the first run would have.
	ArchiveAfter bool `json:"archiveAfter,omitempty"`
	ConfirmPlan  bool `json:"confirmPlan,omitempty"`
	// Place is the project or custom GPT the run's new chat was opened
	// in, when it asked for one.
	Place *Place `json:"place,omitempty"`
	// Attachments are the files sent with the prompt (names as sent,
	// sizes, sha256), checked before the run was created; the prompt is
	// sent only once each is proven in the composer.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Seq is the number of journal entries written for the run.
	Seq uint64 `json:"seq"`
}

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

// Attachment is one file checked for sending: where it is, the name it is
// sent under, its size and its sha256 (what the journal records).
type Attachment struct {
	// Path is the absolute local path the bytes are read from.
	Path string `json:"path"`
	// Name is the name the site sees: the base name, or a visible rename
	// when another file of the message has the same base name.
	Name   string `json:"name"`
	Bytes  int64  `json:"bytes"`
	SHA256 string `json:"sha256"`
	// RenamedFrom is the file's path as the rename shows it ("a/util.go"
	// for Name "a__util.go"; "" when not renamed). The prompt says it, never
	// the absolute path.
	RenamedFrom string `json:"renamedFrom,omitempty"`
	// SiteName is the name the site gave the file when it was not Name
	// (ChatGPT renames a name its library already holds: "notes(1).txt");
	// "" when the site kept Name or the file was not attached yet.
	SiteName string `json:"siteName,omitempty"`
}

// Renamed reports whether the file is sent under another name than its own.
func (f Attachment) Renamed() bool { return f.RenamedFrom != "" }

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

// Artifact is one file a run produced (a code-mode zip, a generated
// image): its descriptor and the verifier's verdict.
type Artifact struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	Bytes   int64  `json:"bytes,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// Kind is ArtifactImage for a generated image, ArtifactReport for a
	// report, "" for a zip.
	Kind string `json:"kind,omitempty"`
	// MIME, Width and Height are an image's, as its bytes prove them;
	// SiteFile is the site's id of the file it came from.
	MIME     string `json:"mime,omitempty"`
	Width    int    `json:"width,omitempty"`
	Height   int    `json:"height,omitempty"`
	SiteFile string `json:"siteFile,omitempty"`
	// File is what is at Path when a face looked, never stored: "" when
	// the file is there or nobody looked, FileTrashed or FileMissing.
	File string `json:"file,omitempty"`
}

// Place is where a site files a chat beyond its plain history: a project
// (ChatGPT's) or a custom GPT, by its address and, when known, its name.
type Place struct {
	Kind    string `json:"kind"` // "project" or "gpt"
	Name    string `json:"name,omitempty"`
	Address string `json:"address"`
	// Filed says the conversation's address proves it was filed there.
	Filed bool `json:"filed"`
}

// ArtifactImage is the Kind of a generated image.
const ArtifactImage = "image"

// ArtifactReport is the Kind of a long run's written report (a deep
// research's), saved as Markdown.
const ArtifactReport = "report"

// The states of a saved file now, as Artifact.File.
const (
	FileTrashed = "trashed" // the user moved it to the desktop's trash
	FileMissing = "missing" // it is no longer at its path, nor known in the trash
)

// Receipt is one proof layer of a run (routing, transport, content,
// download) as JSON-ready data, kept beside the output and in the store.
type Receipt struct {
	Layer string            `json:"layer"`
	At    time.Time         `json:"at"`
	Data  map[string]string `json:"data"`
}

// Listed is a run found by a search, with the hit that found it.
type Listed struct {
	Session *Run `json:"session"`
	Hit     Hit  `json:"hit"`
}
