package cli

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/version"
)

// ReceiptKind names the receipt format.
const ReceiptKind = "ferry.code.receipt/v1"

// Receipt is the record `ferry code` writes beside its outputs: which proof
// layers passed, every step's answer proof and every zip's outcome. It
// holds hashes, ids and local paths, never a token, a cookie or a signed
// download URL.
type Receipt struct {
	Kind             string          `json:"kind"`
	OK               bool            `json:"ok"`
	Site             string          `json:"site"`
	Contract         prompt.Contract `json:"contract"`
	MultiZip         bool            `json:"multiZip"`
	AllowInline      bool            `json:"allowInline"`
	ConversationID   string          `json:"conversationId,omitempty"`
	ConversationURL  string          `json:"conversationUrl,omitempty"`
	Layers           Layers          `json:"layers"`
	Steps            []StepReceipt   `json:"steps"`
	Zips             []ZipReceipt    `json:"zips"`
	SourceProvenance string          `json:"sourceProvenance,omitempty"`
	Warnings         []string        `json:"warnings,omitempty"`
	Error            *errs.Envelope  `json:"error,omitempty"`
	Path             string          `json:"receipt,omitempty"`
	StartedAt        time.Time       `json:"startedAt"`
	FinishedAt       time.Time       `json:"finishedAt"`
	FerryVersion     string          `json:"ferryVersion"`
}

// Layers are the four proofs of a run.
type Layers struct {
	// Routing: every step was typed into the tab asked for (or the one
	// Ferry opened), and later steps into the tab of the first.
	Routing Layer `json:"routing"`
	// Transport: every step's answer was seen complete (stream or DOM).
	Transport Layer `json:"transport"`
	// Content: every step met its output contract.
	Content Layer `json:"content"`
	// Download: at least one zip was saved and verified ("n/a" when no step
	// asked for one).
	Download Layer `json:"download"`
}

// Layer is one proof: passed, failed, or n/a when the run never got there
// or the layer does not apply, with what was seen.
type Layer struct {
	Status string `json:"status"` // "passed", "failed", "n/a"
	Detail string `json:"detail,omitempty"`
}

// StepReceipt is one message of the run.
type StepReceipt struct {
	Contract     prompt.Contract  `json:"contract"`
	PromptSHA256 string           `json:"promptSha256"`
	Result       *provider.Result `json:"result,omitempty"`
	Outcome      *prompt.Outcome  `json:"outcome,omitempty"`
	Compliance   []prompt.Warning `json:"compliance,omitempty"`
	Error        *errs.Envelope   `json:"error,omitempty"`
}

// ZipReceipt is the outcome of one zip.
type ZipReceipt struct {
	SandboxPath string         `json:"sandboxPath,omitempty"`
	Inline      bool           `json:"inline,omitempty"` // built from the answer's code blocks
	SavedPath   string         `json:"savedPath,omitempty"`
	Sidecar     string         `json:"sidecar,omitempty"`
	Verified    bool           `json:"verified"`
	Quarantined bool           `json:"quarantined,omitempty"`
	SHA256      string         `json:"sha256,omitempty"`
	Size        int64          `json:"size,omitempty"`
	Files       int            `json:"files,omitempty"`
	Error       *errs.Envelope `json:"error,omitempty"`
}

func newReceipt(c prompt.Contract, multi, inline bool) *Receipt {
	return &Receipt{Kind: ReceiptKind, Site: "chatgpt", Contract: c, MultiZip: multi, AllowInline: inline,
		Steps: []StepReceipt{}, Zips: []ZipReceipt{}, StartedAt: time.Now().UTC(), FerryVersion: version.Version}
}

const (
	passed = "passed"
	failed = "failed"
	na     = "n/a"
)

// layers judges the four proofs from the steps and zips; runErr is the
// run's outcome.
func (rc *Receipt) layers(runErr error) {
	l := Layers{Routing: Layer{Status: na}, Transport: Layer{Status: na}, Content: Layer{Status: na}, Download: Layer{Status: na}}
	answered := 0
	for i, s := range rc.Steps {
		if s.Result == nil {
			if s.Error != nil && errs.Has(s.Error, errs.Internal) && s.Error.Evidence["controlled_tab_id"] != "" {
				l.Routing = Layer{Status: failed, Detail: s.Error.Message}
			} else if l.Transport.Status != failed {
				l.Transport = Layer{Status: failed, Detail: "step " + string(s.Contract) + ": " + string(s.Error.Code)}
			}
			continue
		}
		answered++
		r := s.Result.Routing
		first := rc.Steps[0].Result
		switch {
		case r.Mismatch || (i > 0 && first != nil && r.ControlledTabID != first.Routing.ControlledTabID):
			l.Routing = Layer{Status: failed, Detail: "step " + string(s.Contract) + " ran in tab " + r.ControlledTabID}
		case l.Routing.Status != failed:
			l.Routing = Layer{Status: passed, Detail: "tab " + r.ControlledTabID}
		}
		if l.Transport.Status != failed {
			l.Transport = Layer{Status: passed, Detail: s.Result.Transport.Source + ": " + s.Result.Transport.CompleteReason}
		}
	}
	checked := 0
	for _, s := range rc.Steps {
		if s.Outcome != nil {
			checked++
		}
	}
	switch {
	case answered > 0 && checked == answered && runErr == nil:
		l.Content = Layer{Status: passed, Detail: string(rc.Contract)}
	case answered > 0 && checked < answered:
		detail := "the deliverable is missing"
		if e := errs.From(runErr); runErr != nil && (e.Code == errs.DeliverableMissing || e.Code == errs.ContractViolation || e.Code == errs.AnswerEmpty) {
			detail = string(e.Code) + ": " + e.Message
		} else if runErr != nil {
			detail = "not checked: " + string(errs.CodeOf(runErr))
		}
		l.Content = Layer{Status: failed, Detail: detail}
	case answered > 0:
		l.Content = Layer{Status: passed, Detail: string(rc.Contract)}
	}
	good, tried := 0, 0
	for _, z := range rc.Zips {
		tried++
		if z.Verified {
			good++
		}
	}
	switch {
	case good > 0:
		l.Download = Layer{Status: passed, Detail: plural(good, "zip") + " saved and verified of " + plural(tried, "")}
	case tried > 0:
		l.Download = Layer{Status: failed, Detail: "no zip saved as good: " + string(rc.Zips[0].Error.Code)}
	case rc.asksForZip() && answered > 0:
		l.Download = Layer{Status: failed, Detail: "no zip in the answer"}
	}
	rc.Layers = l
}

func (rc *Receipt) asksForZip() bool {
	return rc.Contract == prompt.ContractCode || rc.Contract == prompt.ContractAll || rc.Contract == prompt.ContractNone
}

func (rc *Receipt) hasCodeBlocks() bool {
	for _, s := range rc.Steps {
		if s.Result != nil && len(s.Result.CodeBlocks) > 0 {
			return true
		}
	}
	return false
}

func plural(n int, what string) string {
	s := strconv.Itoa(n)
	if what == "" {
		return s
	}
	if n == 1 {
		return s + " " + what
	}
	return s + " " + what + "s"
}

// writeReceipt saves a receipt as indented JSON, atomically, at path. A
// receipt that cannot be written fails a run that succeeded; for a run that
// already failed (runErr != nil) its error stays the one reported, and the
// failure comes back as a warning to record instead.
func writeReceipt(path string, receipt any, runErr error) (warning string, err error) {
	b, err := json.MarshalIndent(receipt, "", "  ")
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "encode the receipt: %v", err)
	}
	if werr := artifact.WriteFileAtomic(path, append(b, '\n'), 0o644); werr != nil {
		if runErr == nil {
			return "", werr
		}
		return "the receipt could not be written: " + errs.From(werr).Message, nil
	}
	return "", nil
}
