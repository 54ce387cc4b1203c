package service

import (
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The records of the pipeline as the Service shows them. Each mirrors the
// record package job (or provider, search) keeps, field for field and with
// the same JSON form, so that `ferry sessions show --json` prints the same
// bytes whichever implementation answered; core's tests fail when a field
// of the originals has no mirror here.

// Run is the record of one run (job.Session).
type Run struct {
	ID              string     `json:"id"`
	Site            string     `json:"site"`
	ModelRequested  string     `json:"modelRequested,omitempty"`
	Model           ModelProof `json:"model"`
	TargetID        string     `json:"targetId,omitempty"`
	ConversationURL string     `json:"conversationUrl,omitempty"`
	ConversationID  string     `json:"conversationId,omitempty"`
	MessageID       string     `json:"messageId,omitempty"`
	Prompt          string     `json:"prompt"`
	// Task is the user's own words when Prompt was composed around them
	// (code mode): what the run is titled by.
	Task        string         `json:"task,omitempty"`
	Template    string         `json:"template,omitempty"`
	Contract    string         `json:"contract,omitempty"`
	Parent      string         `json:"parent,omitempty"`
	Thread      string         `json:"thread,omitempty"`
	Created     time.Time      `json:"created"`
	Updated     time.Time      `json:"updated"`
	Deadline    time.Time      `json:"deadline,omitzero"`
	State       string         `json:"state"`
	StateBefore string         `json:"stateBefore,omitempty"`
	Warnings    []string       `json:"warnings,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
	Answer      string         `json:"answer,omitempty"`
	// AnswerPartial says Answer is only what had streamed when the user
	// cancelled the run: the site may hold the rest.
	AnswerPartial bool         `json:"answerPartial,omitempty"`
	CodeBlocks    []CodeBlock  `json:"codeBlocks,omitempty"`
	AnswerSource  string       `json:"answerSource,omitempty"`
	Routing       *Routing     `json:"routing,omitempty"`
	Transport     *Transport   `json:"transport,omitempty"`
	Content       *Content     `json:"content,omitempty"`
	Timings       *Timings     `json:"timings,omitempty"`
	Fingerprint   *Fingerprint `json:"fingerprint,omitempty"`
	Artifacts     []Artifact   `json:"artifacts,omitempty"`
	Receipts      []Receipt    `json:"receipts,omitempty"`
	Origin        string       `json:"origin"`
	Approval      string       `json:"approval"`
	CodeMode      bool         `json:"codeMode,omitempty"`
	Attachments   []Attachment `json:"attachments,omitempty"`
	Seq           uint64       `json:"seq"`
}

// Attachment is one file sent with a prompt (attach.File): its local path,
// the name the site saw, its size and sha256, the path a visible rename
// replaced, and the name the site gave it when it renamed it itself.
type Attachment struct {
	Path        string `json:"path"`
	Name        string `json:"name"`
	Bytes       int64  `json:"bytes"`
	SHA256      string `json:"sha256"`
	RenamedFrom string `json:"renamedFrom,omitempty"`
	SiteName    string `json:"siteName,omitempty"`
}

// ModelProof says which model answered and where that was read
// (provider.ModelProof).
type ModelProof struct {
	Requested string `json:"requested"`
	Selected  string `json:"selected,omitempty"`
	Slug      string `json:"slug,omitempty"`
	Source    string `json:"source,omitempty"`
	DOMSlug   string `json:"domSlug,omitempty"`
	Verified  bool   `json:"verified"`
}

// CodeBlock is one fenced code block of an answer (provider.CodeBlock).
type CodeBlock struct {
	Language string `json:"language,omitempty"`
	Code     string `json:"code"`
}

// Routing is the proof that the tab asked for is the tab that was driven
// (provider.Routing).
type Routing struct {
	RequestedTabID  string `json:"requested_tab_id,omitempty"`
	ControlledTabID string `json:"controlled_tab_id"`
	TabWasCreated   bool   `json:"tab_was_created"`
	Mismatch        bool   `json:"mismatch"`
	URL             string `json:"url,omitempty"`
}

// Transport says how the end of the turn was seen (provider.Transport).
type Transport struct {
	Source         string `json:"source"`
	Decoder        string `json:"decoder,omitempty"`
	CompleteReason string `json:"complete_reason"`
	StreamBytes    int    `json:"stream_bytes,omitempty"`
	Partials       int    `json:"partials"`
}

// Content identifies the answer text (provider.Content).
type Content struct {
	SHA256 string `json:"sha256"`
	Bytes  int    `json:"bytes"`
	Runes  int    `json:"runes"`
	Source string `json:"source"`
}

// Timings are the phases of a run in milliseconds (provider.Timings).
type Timings struct {
	ReadyMS    int64 `json:"ready_ms"`
	ComposeMS  int64 `json:"compose_ms"`
	SubmitMS   int64 `json:"submit_ms"`
	WaitMS     int64 `json:"wait_ms"`
	ExtractMS  int64 `json:"extract_ms"`
	TotalMS    int64 `json:"total_ms"`
	FirstTextM int64 `json:"first_text_ms,omitempty"`
}

// Fingerprint identifies one submission (job.Fingerprint).
type Fingerprint struct {
	Hash         string    `json:"hash"`
	At           time.Time `json:"at"`
	Conversation string    `json:"conversation,omitempty"`
	Confirmed    bool      `json:"confirmed"`
	ConfirmedBy  string    `json:"confirmedBy,omitempty"`
	RetryOf      string    `json:"retry_of,omitempty"`
	Reason       string    `json:"reason,omitempty"`
	NotBefore    time.Time `json:"not_before,omitzero"`
}

// Artifact is one file a run produced and its verdict (job.Artifact).
type Artifact struct {
	Name    string `json:"name"`
	Path    string `json:"path,omitempty"`
	SHA256  string `json:"sha256,omitempty"`
	Bytes   int64  `json:"bytes,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
	// File is what is at Path when a face looked (not recorded): "" when
	// the file is there or nobody looked, FileTrashed or FileMissing.
	File string `json:"file,omitempty"`
}

// The states of a saved file now, as Artifact.File.
const (
	FileTrashed = "trashed" // the user moved it to the desktop's trash
	FileMissing = "missing" // it is no longer at its path, nor known in the trash
)

// Receipt is one proof layer of a run (job.Receipt).
type Receipt struct {
	Layer string            `json:"layer"`
	At    time.Time         `json:"at"`
	Data  map[string]string `json:"data"`
}

// JournalEntry is one journal line of a run (job.Entry).
type JournalEntry struct {
	Seq         uint64         `json:"seq"`
	State       string         `json:"state"`
	At          time.Time      `json:"at"`
	Note        string         `json:"note,omitempty"`
	Fingerprint *Fingerprint   `json:"fingerprint,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
}

// Finding is what a reattach found about an interrupted run (job.Finding).
type Finding struct {
	From   string `json:"from"`
	Looked bool   `json:"looked"`
	Found  bool   `json:"found"`
	Action string `json:"action"`
	Detail string `json:"detail"`
}

// Partial is the answer so far (provider.Partial).
type Partial struct {
	Text      string `json:"text"`
	Added     string `json:"added"`
	Rewritten bool   `json:"rewritten"`
	Source    string `json:"source"`
}

// RunEvent is one thing a run reports (job.Event): a state it entered (Kind
// "state"), the answer grown (Kind "partial", with Partial), a finding.
type RunEvent struct {
	Session string    `json:"session"`
	Kind    string    `json:"kind"`
	At      time.Time `json:"at"`
	State   string    `json:"state,omitempty"`
	Note    string    `json:"note,omitempty"`
	Partial *Partial  `json:"partial,omitempty"`
	Finding *Finding  `json:"finding,omitempty"`
}

// Hit is the search hit that found a run (search.Hit).
type Hit struct {
	ID      string    `json:"id"`
	Site    string    `json:"site"`
	Model   string    `json:"model"`
	State   string    `json:"state"`
	Created time.Time `json:"created"`
	Files   []string  `json:"files,omitempty"`
	Prompt  string    `json:"prompt,omitempty"`
	Score   int       `json:"score"`
	Matches []Match   `json:"matches,omitempty"`
	Snippet string    `json:"snippet"`
}

// Match is one field of a run that matched a search (search.Match): Field
// is "site", "model", "file", "prompt" or "answer", File the index of the
// file name, Positions rune offsets of the matched characters.
type Match struct {
	Field     string `json:"field"`
	File      int    `json:"file,omitempty"`
	Positions []int  `json:"positions"`
}
