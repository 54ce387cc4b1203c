package artifact

import (
	"fmt"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// Reason says why the verifier objects to an archive or an entry, Problem
// is one objection, Entry one member of a verified archive, as the central
// directory declares it: the records of package record, which the sidecar,
// the receipt and --json output carry.
type (
	Reason  = record.ArtifactReason
	Problem = record.ArtifactProblem
	Entry   = record.ArtifactEntry
)

// The reasons, grouped by the envelope code they map to (see Reason.Code).
const (
	// Corrupt: the bytes are damaged, truncated or not a zip at all.
	ReasonNotZip          = record.ReasonNotZip
	ReasonTruncated       = record.ReasonTruncated
	ReasonBadDirectory    = record.ReasonBadDirectory
	ReasonMultiDisk       = record.ReasonMultiDisk
	ReasonBadLocalHeader  = record.ReasonBadLocalHeader
	ReasonCRCMismatch     = record.ReasonCRCMismatch
	ReasonCRCMissing      = record.ReasonCRCMissing
	ReasonSizeMismatch    = record.ReasonSizeMismatch
	ReasonBadCompressed   = record.ReasonBadCompressed
	ReasonDataAfter       = record.ReasonDataAfter
	ReasonEmpty           = record.ReasonEmpty
	ReasonBadDirEntry     = record.ReasonBadDirEntry
	ReasonCRCZeroSuspect  = record.ReasonCRCZeroSuspect
	ReasonDescriptorWrong = record.ReasonDescriptorWrong

	// Unsafe: extracting the archive could harm the machine or hides content.
	ReasonUnsafeName     = record.ReasonUnsafeName
	ReasonDuplicateName  = record.ReasonDuplicateName
	ReasonSpecialFile    = record.ReasonSpecialFile
	ReasonSetuid         = record.ReasonSetuid
	ReasonEncrypted      = record.ReasonEncrypted
	ReasonOverlap        = record.ReasonOverlap
	ReasonHeaderMismatch = record.ReasonHeaderMismatch
	ReasonDataBefore     = record.ReasonDataBefore
	ReasonHiddenData     = record.ReasonHiddenData
	ReasonUnsupported    = record.ReasonUnsupported
	ReasonRatio          = record.ReasonRatio
	ReasonTotalRatio     = record.ReasonTotalRatio

	// TooLarge: over a configured cap.
	ReasonTooManyEntries = record.ReasonTooManyEntries
	ReasonTooLarge       = record.ReasonTooLarge
)

// Verdict is the verifier's full account of an archive. OK is true only when
// no problem is blocking; the entries are listed in central-directory order
// as far as the directory could be read.
type Verdict struct {
	OK                bool      `json:"ok"`
	Size              int64     `json:"size"`
	SHA256            string    `json:"sha256"`
	Entries           []Entry   `json:"entries"`
	Files             int       `json:"files"`
	TotalUncompressed uint64    `json:"totalUncompressed"`
	TotalCompressed   uint64    `json:"totalCompressed"`
	Problems          []Problem `json:"problems,omitempty"`
}

// Blocking returns the first blocking problem, or false when there is none.
func (v *Verdict) Blocking() (Problem, bool) {
	for _, p := range v.Problems {
		if p.Blocking {
			return p, true
		}
	}
	return Problem{}, false
}

// Err is the envelope for the first blocking problem (ArtifactCorrupt,
// ArtifactUnsafe or ArtifactTooLarge with the reason, entry and the number
// of problems as evidence), or nil when the verdict is OK.
func (v *Verdict) Err() error {
	p, ok := v.Blocking()
	if !ok {
		return nil
	}
	e := errs.New(p.Reason.Code(), "verify zip: %s", p.String()).
		WithEvidence("reason", string(p.Reason)).
		WithEvidence("problems", fmt.Sprint(v.blockingCount()))
	if p.Entry != "" {
		e = e.WithEvidence("entry", p.Entry)
	}
	if v.SHA256 != "" {
		e = e.WithEvidence("sha256", v.SHA256)
	}
	return e
}

func (v *Verdict) blockingCount() int {
	n := 0
	for _, p := range v.Problems {
		if p.Blocking {
			n++
		}
	}
	return n
}

func (v *Verdict) add(r Reason, entry, format string, args ...any) {
	v.Problems = append(v.Problems, Problem{Reason: r, Entry: entry, Detail: fmt.Sprintf(format, args...), Blocking: true})
}

func (v *Verdict) warn(r Reason, entry, format string, args ...any) {
	v.Problems = append(v.Problems, Problem{Reason: r, Entry: entry, Detail: fmt.Sprintf(format, args...)})
}
