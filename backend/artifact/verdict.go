package artifact

import (
	"fmt"
	"io/fs"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Reason says why the verifier objects to an archive or an entry. Reasons
// are stable strings: they reach the sidecar, the receipt and --json output.
type Reason string

// The reasons, grouped by the envelope code they map to (see Reason.Code).
const (
	// Corrupt: the bytes are damaged, truncated or not a zip at all.
	ReasonNotZip          Reason = "not_zip"          // no end-of-central-directory record
	ReasonTruncated       Reason = "truncated"        // a record or entry data runs past the end of the file
	ReasonBadDirectory    Reason = "bad_directory"    // central directory malformed or inconsistent with the end record
	ReasonMultiDisk       Reason = "multi_disk"       // spanned archives are not accepted
	ReasonBadLocalHeader  Reason = "bad_local_header" // local header missing or malformed
	ReasonCRCMismatch     Reason = "crc_mismatch"     // the data does not match the stored CRC-32
	ReasonCRCMissing      Reason = "crc_missing"      // stored CRC is 0 for a non-empty entry and the data's is not
	ReasonSizeMismatch    Reason = "size_mismatch"    // the data inflates to another size than declared
	ReasonBadCompressed   Reason = "bad_compressed"   // the compressed stream is invalid
	ReasonDataAfter       Reason = "data_after"       // bytes after the end record that no record accounts for
	ReasonEmpty           Reason = "empty"            // no regular file in the archive
	ReasonBadDirEntry     Reason = "bad_dir_entry"    // a directory entry that carries data
	ReasonCRCZeroSuspect  Reason = "crc_zero_suspect" // warning: stored and actual CRC are both 0 for a non-empty entry
	ReasonDescriptorWrong Reason = "descriptor_wrong" // data descriptor disagrees with the central directory

	// Unsafe: extracting the archive could harm the machine or hides content.
	ReasonUnsafeName     Reason = "unsafe_name"     // .., absolute, backslash, NUL, control char, drive letter, invalid UTF-8
	ReasonDuplicateName  Reason = "duplicate_name"  // equal to another entry after case folding and NFC
	ReasonSpecialFile    Reason = "special_file"    // symlink, device, fifo or socket
	ReasonSetuid         Reason = "setuid"          // setuid or setgid bit
	ReasonEncrypted      Reason = "encrypted"       // general-purpose flag bit 0
	ReasonOverlap        Reason = "overlap"         // entries share bytes (overlapping zip bomb)
	ReasonHeaderMismatch Reason = "header_mismatch" // local header names another file or method than the central one
	ReasonDataBefore     Reason = "data_before"     // bytes before the first entry (a polyglot or self-extractor)
	ReasonHiddenData     Reason = "hidden_data"     // bytes between records, or inside an entry past its stream
	ReasonUnsupported    Reason = "unsupported"     // compression method other than store or deflate: unverifiable
	ReasonRatio          Reason = "ratio"           // an entry inflates more than the ratio limit
	ReasonTotalRatio     Reason = "total_ratio"     // the archive inflates more than the ratio limit

	// TooLarge: over a configured cap.
	ReasonTooManyEntries Reason = "too_many_entries"
	ReasonTooLarge       Reason = "too_large" // total uncompressed size over the cap
)

var reasonCodes = map[Reason]errs.Code{
	ReasonNotZip: errs.ArtifactCorrupt, ReasonTruncated: errs.ArtifactCorrupt,
	ReasonBadDirectory: errs.ArtifactCorrupt, ReasonMultiDisk: errs.ArtifactCorrupt,
	ReasonBadLocalHeader: errs.ArtifactCorrupt, ReasonCRCMismatch: errs.ArtifactCorrupt,
	ReasonCRCMissing: errs.ArtifactCorrupt, ReasonSizeMismatch: errs.ArtifactCorrupt,
	ReasonBadCompressed: errs.ArtifactCorrupt, ReasonDataAfter: errs.ArtifactCorrupt,
	ReasonEmpty: errs.ArtifactCorrupt, ReasonBadDirEntry: errs.ArtifactCorrupt,
	ReasonCRCZeroSuspect: errs.ArtifactCorrupt, ReasonDescriptorWrong: errs.ArtifactCorrupt,

	ReasonUnsafeName: errs.ArtifactUnsafe, ReasonDuplicateName: errs.ArtifactUnsafe,
	ReasonSpecialFile: errs.ArtifactUnsafe, ReasonSetuid: errs.ArtifactUnsafe,
	ReasonEncrypted: errs.ArtifactUnsafe, ReasonOverlap: errs.ArtifactUnsafe,
	ReasonHeaderMismatch: errs.ArtifactUnsafe, ReasonDataBefore: errs.ArtifactUnsafe,
	ReasonHiddenData: errs.ArtifactUnsafe, ReasonUnsupported: errs.ArtifactUnsafe,
	ReasonRatio: errs.ArtifactUnsafe, ReasonTotalRatio: errs.ArtifactUnsafe,

	ReasonTooManyEntries: errs.ArtifactTooLarge, ReasonTooLarge: errs.ArtifactTooLarge,
}

// Code is the envelope code a blocking problem of this reason is reported
// under: ArtifactCorrupt, ArtifactUnsafe or ArtifactTooLarge.
func (r Reason) Code() errs.Code {
	if c, ok := reasonCodes[r]; ok {
		return c
	}
	return errs.ArtifactCorrupt
}

// Problem is one objection of the verifier. A blocking problem makes the
// verdict fail; a non-blocking one is a warning kept in the record.
type Problem struct {
	Reason   Reason `json:"reason"`
	Entry    string `json:"entry,omitempty"` // the entry's name as stored ("" for the archive)
	Detail   string `json:"detail"`
	Blocking bool   `json:"blocking"`
}

func (p Problem) String() string {
	if p.Entry == "" {
		return fmt.Sprintf("%s: %s", p.Reason, p.Detail)
	}
	return fmt.Sprintf("%s: %q: %s", p.Reason, p.Entry, p.Detail)
}

// Entry is one member of a verified archive, as the central directory
// declares it.
type Entry struct {
	Name           string      `json:"name"`
	Size           uint64      `json:"size"`
	CompressedSize uint64      `json:"compressedSize"`
	CRC32          uint32      `json:"crc32"`
	Mode           fs.FileMode `json:"mode"`
	Method         uint16      `json:"method"`
	Dir            bool        `json:"dir,omitempty"`
}

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
