package codemode

import (
	"encoding/json"
	"strconv"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/prompt"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/version"
)

// ReceiptKind names the code receipt format.
const ReceiptKind = "ferry.code.receipt/v1"

// ReceiptSuffix ends the name of the receipt a code run writes beside its
// outputs.
const ReceiptSuffix = ".receipt.json"

// The records of a code run (`ferry code`, a hub code job), as package
// record declares them for every face: Receipt is what the run writes beside
// its outputs (which proof layers passed, every step's answer proof and
// every zip's outcome; never a token, a cookie or a signed download URL),
// ReceiptLayers its four proofs, StepReceipt one message, ZipReceipt the
// outcome of one zip.
type (
	Receipt       = record.CodeReceipt
	ReceiptLayers = record.ReceiptLayers
	ReceiptLayer  = record.ReceiptLayer
	StepReceipt   = record.StepReceipt
	ZipReceipt    = record.ZipReceipt
)

func newReceipt(c prompt.Contract, multi, inline bool) *Receipt {
	return &Receipt{Kind: ReceiptKind, Site: SiteID, Contract: c, MultiZip: multi, AllowInline: inline,
		Steps: []StepReceipt{}, Zips: []ZipReceipt{}, StartedAt: time.Now().UTC(), FerryVersion: version.Version}
}

const (
	passed = "passed"
	failed = "failed"
	na     = "n/a"
)

// judgeLayers judges the four proofs of rc from its steps and zips; runErr
// is the run's outcome.
func judgeLayers(rc *Receipt, runErr error) {
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
		l.Download = ReceiptLayer{Status: passed, Detail: plural(good, "zip") + " saved and verified of " + plural(tried, "") + transportNote(rc)}
	case tried > 0:
		l.Download = ReceiptLayer{Status: failed, Detail: "no zip saved as good: " + string(rc.Zips[0].Error.Code)}
	case asksForZip(rc) && answered > 0:
		l.Download = ReceiptLayer{Status: failed, Detail: "no zip in the answer"}
	}
	rc.Layers = l
}

// transportNote names the way the first verified zip of rc's bytes left the
// browser, and says so when the browser does not share Ferry's files.
func transportNote(rc *Receipt) string {
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

func asksForZip(rc *Receipt) bool {
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
