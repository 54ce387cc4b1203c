package service

import (
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// CodeReceipt is the record a code run writes beside its outputs (core's
// CodeReceipt, the record `ferry code --json` prints): which proof layers
// passed, every step's answer proof and every zip's outcome.
type CodeReceipt struct {
	Kind             string         `json:"kind"`
	OK               bool           `json:"ok"`
	Site             string         `json:"site"`
	Contract         string         `json:"contract"`
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
	Sessions         []string       `json:"sessions,omitempty"`
	StartedAt        time.Time      `json:"startedAt"`
	FinishedAt       time.Time      `json:"finishedAt"`
	FerryVersion     string         `json:"ferryVersion"`
}

// ReceiptLayers are the four proofs of a code run.
type ReceiptLayers struct {
	Routing   ReceiptLayer `json:"routing"`
	Transport ReceiptLayer `json:"transport"`
	Content   ReceiptLayer `json:"content"`
	Download  ReceiptLayer `json:"download"`
}

// ReceiptLayer is one proof: Status "passed", "failed" or "n/a", with what
// was seen.
type ReceiptLayer struct {
	Status string `json:"status"`
	Detail string `json:"detail,omitempty"`
}

// StepReceipt is one message of a code run.
type StepReceipt struct {
	Contract     string              `json:"contract"`
	PromptSHA256 string              `json:"promptSha256"`
	Result       *Result             `json:"result,omitempty"`
	Outcome      *Outcome            `json:"outcome,omitempty"`
	Compliance   []ComplianceWarning `json:"compliance,omitempty"`
	Error        *errs.Envelope      `json:"error,omitempty"`
}

// Result is an answer with its proof (provider.Result).
type Result struct {
	Site           string      `json:"site"`
	Answer         string      `json:"answer"`
	CodeBlocks     []CodeBlock `json:"codeBlocks"`
	Model          ModelProof  `json:"model"`
	Routing        Routing     `json:"routing"`
	Transport      Transport   `json:"transport"`
	Content        Content     `json:"content"`
	ConversationID string      `json:"conversationId,omitempty"`
	MessageID      string      `json:"messageId,omitempty"`
	Timings        Timings     `json:"timings"`
	Warnings       []string    `json:"warnings,omitempty"`
}

// Outcome is how an answer met its output contract (prompt.Outcome).
type Outcome struct {
	Contract  string   `json:"contract"`
	Ruling    string   `json:"ruling,omitempty"`
	Reason    string   `json:"reason,omitempty"`
	PlanSteps int      `json:"planSteps,omitempty"`
	Diff      bool     `json:"diff,omitempty"`
	Zips      []string `json:"zips,omitempty"`
}

// ComplianceWarning is a usable answer that did not follow the delivery
// instructions (prompt.Warning).
type ComplianceWarning struct {
	Kind    string `json:"kind"`
	Path    string `json:"path"`
	Line    int    `json:"line,omitempty"`
	Message string `json:"message"`
}

// ZipReceipt is the outcome of one zip of a code run.
type ZipReceipt struct {
	SandboxPath string `json:"sandboxPath,omitempty"`
	Inline      bool   `json:"inline,omitempty"`
	SavedPath   string `json:"savedPath,omitempty"`
	Sidecar     string `json:"sidecar,omitempty"`
	Verified    bool   `json:"verified"`
	Quarantined bool   `json:"quarantined,omitempty"`
	SHA256      string `json:"sha256,omitempty"`
	Size        int64  `json:"size,omitempty"`
	Files       int    `json:"files,omitempty"`
	// Transport is how the bytes left the browser.
	Transport *ZipTransport  `json:"transport,omitempty"`
	Error     *errs.Envelope `json:"error,omitempty"`
}

// ZipTransport is how a zip's bytes left the browser (artifact.Transport):
// the way (a browser.Way, such as "url-download" or "fetch-stream") and,
// when the way depended on it, whether the browser shares Ferry's files and
// how that was decided.
type ZipTransport struct {
	Way         string `json:"way,omitempty"`
	FilesShared *bool  `json:"filesShared,omitempty"`
	Sharing     string `json:"sharing,omitempty"`
}
