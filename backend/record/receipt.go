package record

import (
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// CodeReceipt is the record a code run (`ferry code`, a hub code job)
// writes beside its outputs and `ferry code --json` prints: which proof
// layers passed, every step's answer proof and every zip's outcome. It
// holds hashes, ids and local paths, never a token, a cookie or a signed
// download URL.
type CodeReceipt struct {
	Kind             string         `json:"kind"`
	OK               bool           `json:"ok"`
	Site             string         `json:"site"`
	Contract         Contract       `json:"contract"`
	MultiZip         bool           `json:"multiZip"`
	AllowInline      bool           `json:"allowInline"`
	ConversationID   string         `json:"conversationId,omitempty"`
	ConversationURL  string         `json:"conversationUrl,omitempty"`
	Layers           ReceiptLayers  `json:"layers"`
	Steps            []StepReceipt  `json:"steps"`
	Zips             []ZipReceipt   `json:"zips"`
	SourceProvenance string         `json:"sourceProvenance,omitempty"`
	Warnings         []string       `json:"warnings,omitempty"`
	Error            *errs.Envelope `json:"error,omitempty"`
	Path             string         `json:"receipt,omitempty"`
	// Sessions are the ids of the runs' sessions in the history, one per
	// step sent, the last holding the artifacts.
	Sessions     []string  `json:"sessions,omitempty"`
	StartedAt    time.Time `json:"startedAt"`
	FinishedAt   time.Time `json:"finishedAt"`
	FerryVersion string    `json:"ferryVersion"`
}

// ReceiptLayers are the four proofs of a code run.
type ReceiptLayers struct {
	// Routing: every step was typed into the tab asked for (or the one
	// Ferry opened), and later steps into the tab of the first.
	Routing ReceiptLayer `json:"routing"`
	// Transport: every step's answer was seen complete (stream or DOM).
	Transport ReceiptLayer `json:"transport"`
	// Content: every step met its output contract.
	Content ReceiptLayer `json:"content"`
	// Download: at least one zip was saved and verified ("n/a" when no step
	// asked for one).
	Download ReceiptLayer `json:"download"`
}

// ReceiptLayer is one proof: passed, failed, or n/a when the run never got there
// or the layer does not apply, with what was seen.
type ReceiptLayer struct {
	Status string `json:"status"` // "passed", "failed", "n/a"
	Detail string `json:"detail,omitempty"`
}

// StepReceipt is one message of a code run.
type StepReceipt struct {
	Contract     Contract            `json:"contract"`
	PromptSHA256 string              `json:"promptSha256"`
	Result       *Result             `json:"result,omitempty"`
	Outcome      *Outcome            `json:"outcome,omitempty"`
	Compliance   []ComplianceWarning `json:"compliance,omitempty"`
	Error        *errs.Envelope      `json:"error,omitempty"`
}

// Outcome is what a checker found in an answer that meets its contract.
type Outcome struct {
	Contract  Contract `json:"contract"`
	Ruling    string   `json:"ruling,omitempty"`
	Reason    string   `json:"reason,omitempty"`    // of BLOCKED_CURRENT_GATE
	PlanSteps int      `json:"planSteps,omitempty"` // of a TASK_PLAN
	Diff      bool     `json:"diff,omitempty"`      // the code came as a unified diff
	Zips      []string `json:"zips,omitempty"`      // the code came as these zips
}

// ComplianceKind says how an answer did not follow the delivery
// instructions.
type ComplianceKind string

// The compliance warnings.
const (
	WarnBracketLink ComplianceKind = "bracket_link"    // only as [label](sandbox:…), never as a plain line
	WarnNotOwnLine  ComplianceKind = "not_own_line"    // only inside a sentence, backticks or a table
	WarnExtraZip    ComplianceKind = "extra_zip"       // several zips where one was asked for
	WarnNamedWrong  ComplianceKind = "unexpected_name" // a zip other than the one asked for
)

// ComplianceWarning is a compliance finding: the answer is usable, but did
// not follow the delivery instructions.
type ComplianceWarning struct {
	Kind    ComplianceKind `json:"kind"`
	Path    string         `json:"path"`
	Line    int            `json:"line,omitempty"`
	Message string         `json:"message"`
}

// ZipReceipt is the outcome of one zip of a code run or a retrieval.
type ZipReceipt struct {
	SandboxPath string `json:"sandboxPath,omitempty"`
	Inline      bool   `json:"inline,omitempty"` // built from the answer's code blocks
	SavedPath   string `json:"savedPath,omitempty"`
	Sidecar     string `json:"sidecar,omitempty"`
	Verified    bool   `json:"verified"`
	Quarantined bool   `json:"quarantined,omitempty"`
	SHA256      string `json:"sha256,omitempty"`
	Size        int64  `json:"size,omitempty"`
	Files       int    `json:"files,omitempty"`
	// Transport is how the bytes left the browser: the way and whether
	// the browser shares Ferry's files (when the way depended on it).
	Transport *ZipTransport  `json:"transport,omitempty"`
	Error     *errs.Envelope `json:"error,omitempty"`
}

// ZipTransport is how a download's bytes left the browser: the way (a
// browser/fetch.Way, such as "url-download" or "fetch-stream") and, when the way
// depended on it, whether the browser shares Ferry's files.
type ZipTransport struct {
	Way string `json:"way,omitempty"`
	// FilesShared is set when it was checked: true when the browser saves
	// its downloads where Ferry reads them.
	FilesShared *bool `json:"filesShared,omitempty"`
	// Sharing says how that was decided ("launched", "probe", …) and what
	// was seen.
	Sharing string `json:"sharing,omitempty"`
}

// RetrieveReceipt is the record a retrieval (`ferry retrieve`) writes
// beside its outputs and prints with --json. Like the code receipt it
// holds ids, hashes and local paths, never a token, a cookie or a signed
// download URL.
type RetrieveReceipt struct {
	Kind            string         `json:"kind"`
	OK              bool           `json:"ok"`
	Site            string         `json:"site"`
	ConversationID  string         `json:"conversationId"`
	ConversationURL string         `json:"conversationUrl"`
	TabID           string         `json:"tabId,omitempty"`
	TabWasCreated   bool           `json:"tabWasCreated"`
	Zips            []ZipReceipt   `json:"zips"`
	Rejected        []RejectedPath `json:"rejected,omitempty"` // path-like strings the scan refused
	Warnings        []string       `json:"warnings,omitempty"`
	Error           *errs.Envelope `json:"error,omitempty"`
	Path            string         `json:"receipt,omitempty"`
	StartedAt       time.Time      `json:"startedAt"`
	FinishedAt      time.Time      `json:"finishedAt"`
	FerryVersion    string         `json:"ferryVersion"`
}

// RejectedPath is a path-like string that was not accepted as a sandbox zip.
type RejectedPath struct {
	Raw       string `json:"raw"`
	Why       string `json:"why"`
	MessageID string `json:"messageId,omitempty"`
}
