package codemode

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

// ReceiptKind names the code receipt format.
const ReceiptKind = "ferry.code.receipt/v1"

// ReceiptSuffix ends the name of the receipt a code run writes beside its
// outputs.
const ReceiptSuffix = ".receipt.json"

// Receipt is the record a code run (`ferry code`, a hub code job)
// writes beside its outputs: which proof layers passed, every step's
// answer proof and every zip's outcome. It holds hashes, ids and local
// paths, never a token, a cookie or a signed download URL.
type Receipt struct {
	Kind             string          `json:"kind"`
	OK               bool            `json:"ok"`
	Site             string          `json:"site"`
	Contract         prompt.Contract `json:"contract"`
	MultiZip         bool            `json:"multiZip"`
	AllowInline      bool            `json:"allowInline"`
	ConversationID   string          `json:"conversationId,omitempty"`
	ConversationURL  string          `json:"conversationUrl,omitempty"`
	Layers           ReceiptLayers   `json:"layers"`
	Steps            []StepReceipt   `json:"steps"`
	Zips             []ZipReceipt    `json:"zips"`
	SourceProvenance string          `json:"sourceProvenance,omitempty"`
	Warnings         []string        `json:"warnings,omitempty"`
	Error            *errs.Envelope  `json:"error,omitempty"`
	Path             string          `json:"receipt,omitempty"`
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
	Transport *artifact.Transport `json:"transport,omitempty"`
	Error     *errs.Envelope      `json:"error,omitempty"`
}

func newReceipt(c prompt.Contract, multi, inline bool) *Receipt {
	return &Receipt{Kind: ReceiptKind, Site: SiteID, Contract: c, MultiZip: multi, AllowInline: inline,
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
	l := ReceiptLayers{Routing: ReceiptLayer{Status: na}, Transport: ReceiptLayer{Status: na}, Content: ReceiptLayer{Status: na}, Download: ReceiptLayer{Status: na}}
	answered := 0
	for i, s := range rc.Steps {
		if s.Result == nil {
			if s.Error != nil && errs.Has(s.Error, errs.Internal) && s.Error.Evidence["controlled_tab_id"] != "" {
				l.Routing = ReceiptLayer{Status: failed, Detail: s.Error.Message}
			} else if l.Transport.Status != failed {
				l.Transport = ReceiptLayer{Status: failed, Detail: "step " + string(s.Contract) + ": " + string(s.Error.Code)}
			}
			continue
		}
		answered++
		r := s.Result.Routing
		first := rc.Steps[0].Result
		switch {
		case r.Mismatch || (i > 0 && first != nil && r.ControlledTabID != first.Routing.ControlledTabID):
			l.Routing = ReceiptLayer{Status: failed, Detail: "step " + string(s.Contract) + " ran in tab " + r.ControlledTabID}
		case l.Routing.Status != failed:
			l.Routing = ReceiptLayer{Status: passed, Detail: "tab " + r.ControlledTabID}
		}
		if l.Transport.Status != failed {
			l.Transport = ReceiptLayer{Status: passed, Detail: s.Result.Transport.Source + ": " + s.Result.Transport.CompleteReason}
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
		l.Content = ReceiptLayer{Status: passed, Detail: string(rc.Contract)}
	case answered > 0 && checked < answered:
		detail := "the deliverable is missing"
		if e := errs.From(runErr); runErr != nil && (e.Code == errs.DeliverableMissing || e.Code == errs.ContractViolation || e.Code == errs.AnswerEmpty) {
			detail = string(e.Code) + ": " + e.Message
		} else if runErr != nil {
			detail = "not checked: " + string(errs.CodeOf(runErr))
		}
		l.Content = ReceiptLayer{Status: failed, Detail: detail}
	case answered > 0:
		l.Content = ReceiptLayer{Status: passed, Detail: string(rc.Contract)}
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
		l.Download = ReceiptLayer{Status: passed, Detail: plural(good, "zip") + " saved and verified of " + plural(tried, "") + rc.transportNote()}
	case tried > 0:
		l.Download = ReceiptLayer{Status: failed, Detail: "no zip saved as good: " + string(rc.Zips[0].Error.Code)}
	case rc.asksForZip() && answered > 0:
		l.Download = ReceiptLayer{Status: failed, Detail: "no zip in the answer"}
	}
	rc.Layers = l
}

// transportNote names the way the first verified zip's bytes left the
// browser, and says so when the browser does not share Ferry's files.
func (rc *Receipt) transportNote() string {
	for _, z := range rc.Zips {
		if !z.Verified || z.Transport == nil || z.Transport.Way == "" {
			continue
		}
		note := " (by " + z.Transport.Way
		if fs := z.Transport.FilesShared; fs != nil && !*fs {
			note += ": the browser does not share Ferry's files"
		}
		return note + ")"
	}
	return ""
}

func (rc *Receipt) asksForZip() bool {
	return rc.Contract == prompt.ContractCode || rc.Contract == prompt.ContractAll || rc.Contract == prompt.ContractNone
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

// WriteReceipt saves a receipt as indented JSON, atomically, at path. A
// receipt that cannot be written fails a run that succeeded; for a run that
// already failed (runErr != nil) its error stays the one reported, and the
// failure comes back as a warning to record instead.
func WriteReceipt(path string, receipt any, runErr error) (warning string, err error) {
	b, err := json.MarshalIndent(receipt, "", "  ")
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "encode the receipt: %v", err)
	}
	if werr := artifact.WriteFileAtomic(path, append(b, '\n'), 0o600); werr != nil {
		if runErr == nil {
			return "", werr
		}
		return "the receipt could not be written: " + errs.From(werr).Message, nil
	}
	return "", nil
}

// ZipReceiptOf is the receipt line of one retrieved zip.
func ZipReceiptOf(x artifact.Result) ZipReceipt {
	zr := ZipReceipt{SandboxPath: x.Path}
	if x.Saved != nil {
		zr.SavedPath, zr.Sidecar, zr.Quarantined = x.Saved.Path, x.Saved.SidecarPath, x.Saved.Quarantined
		if t := x.Saved.Transport; t.Way != "" {
			zr.Transport = &t
		}
		if v := x.Saved.Verdict; v != nil {
			zr.SHA256, zr.Size, zr.Files = v.SHA256, v.Size, v.Files
		}
	}
	if x.Err != nil {
		zr.Error = errs.From(x.Err)
	} else {
		zr.Verified = true
	}
	return zr
}
