package record

import (
	"fmt"
	"io/fs"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ArtifactItem is one file of the artifacts directory (a zip, or an image
// a site generated) as the library found it, its verdict checked against
// the bytes on disk.
type ArtifactItem struct {
	// Path is the file's absolute path (what a drag-out hands the desktop).
	Path string `json:"path"`
	Name string `json:"name"`
	// Kind is ArtifactImage for an image, ArtifactReport for a report, ""
	// for a zip.
	Kind string `json:"kind,omitempty"`
	// Size is the size on disk now; SHA256 is the digest of those bytes.
	Size     int64          `json:"size"`
	SHA256   string         `json:"sha256"`
	Modified time.Time      `json:"modified"`
	Status   ArtifactStatus `json:"status"`
	// Reason is the verifier's reason code (unsafe_name, ratio…; for an
	// image not_image, truncated, bad_header, too_large) or the library's
	// own (no_provenance, bad_provenance, changed, verdict_failed); Why
	// says it in a sentence. Both are empty for a verified file.
	Reason string `json:"reason,omitempty"`
	Why    string `json:"why,omitempty"`
	// From the sidecar, when there is one. Session is the run that brought
	// the file home; VerifiedAt, for an image, when it was proven and saved.
	Site            string            `json:"site,omitempty"`
	Session         string            `json:"session,omitempty"`
	ConversationURL string            `json:"conversationUrl,omitempty"`
	VerifiedAt      time.Time         `json:"verifiedAt,omitzero"`
	Files           []ArtifactEntry   `json:"files"`
	Problems        []ArtifactProblem `json:"problems,omitempty"`
	// Of an image: what its bytes are now (MIME, Width, Height in pixels;
	// empty when they are no image) and the site's title of it (from the
	// sidecar).
	MIME   string `json:"mime,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	Title  string `json:"title,omitempty"`
	// Of a report: the site's header line over it ("Research completed in
	// 12m · 19 citations · 328 searches") and the sources its research
	// read (from the sidecar; MIME is text/markdown for its text).
	Header  string `json:"header,omitempty"`
	Sources int    `json:"sources,omitempty"`
	// Run tells the story of Session when the history still holds it
	// (filled by the service, not the library).
	Run *ArtifactRun `json:"run,omitempty"`
}

// ArtifactStatus is what the library says about a file on disk.
type ArtifactStatus string

// The statuses. Only ArtifactVerified may be handed to the user as a file
// (dragged out, opened); the others carry a Why.
const (
	// ArtifactVerified: a good sidecar says the verifier passed it (for an
	// image: that it was proven an image when saved, and it still is one),
	// and the bytes on disk still hash to what it recorded.
	ArtifactVerified ArtifactStatus = "verified"
	// ArtifactQuarantined: the zip sits under quarantine/ because the
	// verifier found it unsafe or too large.
	ArtifactQuarantined ArtifactStatus = "quarantined"
	// ArtifactUnverified: no readable sidecar, a failing verdict, or bytes
	// that changed since the verification.
	ArtifactUnverified ArtifactStatus = "unverified"
)

// ArtifactRun is the run an artifact came from, as the library shows it.
type ArtifactRun struct {
	ID string `json:"id"`
	// Prompt is the opening of the user's own words (for a code-mode run,
	// the task, without the wrapper Ferry composed around it).
	Prompt  string    `json:"prompt"`
	Created time.Time `json:"created"`
	State   State     `json:"state"`
}

// ArtifactEntry is one member of a verified archive, as the central
// directory declares it.
type ArtifactEntry struct {
	Name           string      `json:"name"`
	Size           uint64      `json:"size"`
	CompressedSize uint64      `json:"compressedSize"`
	CRC32          uint32      `json:"crc32"`
	Mode           fs.FileMode `json:"mode"`
	Method         uint16      `json:"method"`
	Dir            bool        `json:"dir,omitempty"`
}

// ArtifactProblem is one objection of the verifier. A blocking problem
// makes the verdict fail; a non-blocking one is a warning kept in the
// record.
type ArtifactProblem struct {
	Reason   ArtifactReason `json:"reason"`
	Entry    string         `json:"entry,omitempty"` // the entry's name as stored ("" for the archive)
	Detail   string         `json:"detail"`
	Blocking bool           `json:"blocking"`
}

func (p ArtifactProblem) String() string {
	if p.Entry == "" {
		return fmt.Sprintf("%s: %s", p.Reason, p.Detail)
	}
	return fmt.Sprintf("%s: %q: %s", p.Reason, p.Entry, p.Detail)
}

// ArtifactReason says why the verifier objects to an archive or an entry.
// Reasons are stable strings: they reach the sidecar, the receipt and
// --json output.
type ArtifactReason string

// The reasons, grouped by the envelope code they map to (see
// ArtifactReason.Code).
const (
	// Corrupt: the bytes are damaged, truncated or not a zip at all.
	ReasonNotZip          ArtifactReason = "not_zip"          // no end-of-central-directory record
	ReasonTruncated       ArtifactReason = "truncated"        // a record or entry data runs past the end of the file
	ReasonBadDirectory    ArtifactReason = "bad_directory"    // central directory malformed or inconsistent with the end record
	ReasonMultiDisk       ArtifactReason = "multi_disk"       // spanned archives are not accepted
	ReasonBadLocalHeader  ArtifactReason = "bad_local_header" // local header missing or malformed
	ReasonCRCMismatch     ArtifactReason = "crc_mismatch"     // the data does not match the stored CRC-32
	ReasonCRCMissing      ArtifactReason = "crc_missing"      // stored CRC is 0 for a non-empty entry and the data's is not
	ReasonSizeMismatch    ArtifactReason = "size_mismatch"    // the data inflates to another size than declared
	ReasonBadCompressed   ArtifactReason = "bad_compressed"   // the compressed stream is invalid
	ReasonDataAfter       ArtifactReason = "data_after"       // bytes after the end record that no record accounts for
	ReasonEmpty           ArtifactReason = "empty"            // no regular file in the archive
	ReasonBadDirEntry     ArtifactReason = "bad_dir_entry"    // a directory entry that carries data
	ReasonCRCZeroSuspect  ArtifactReason = "crc_zero_suspect" // warning: stored and actual CRC are both 0 for a non-empty entry
	ReasonDescriptorWrong ArtifactReason = "descriptor_wrong" // data descriptor disagrees with the central directory

	// Unsafe: extracting the archive could harm the machine or hides content.
	ReasonUnsafeName     ArtifactReason = "unsafe_name"     // .., absolute, backslash, NUL, control char, drive letter, invalid UTF-8
	ReasonDuplicateName  ArtifactReason = "duplicate_name"  // equal to another entry after case folding and NFC
	ReasonSpecialFile    ArtifactReason = "special_file"    // symlink, device, fifo or socket
	ReasonSetuid         ArtifactReason = "setuid"          // setuid or setgid bit
	ReasonEncrypted      ArtifactReason = "encrypted"       // general-purpose flag bit 0
	ReasonOverlap        ArtifactReason = "overlap"         // entries share bytes (overlapping zip bomb)
	ReasonHeaderMismatch ArtifactReason = "header_mismatch" // local header names another file or method than the central one
	ReasonDataBefore     ArtifactReason = "data_before"     // bytes before the first entry (a polyglot or self-extractor)
	ReasonHiddenData     ArtifactReason = "hidden_data"     // bytes between records, or inside an entry past its stream
	ReasonUnsupported    ArtifactReason = "unsupported"     // compression method other than store or deflate: unverifiable
	ReasonRatio          ArtifactReason = "ratio"           // an entry inflates more than the ratio limit
	ReasonTotalRatio     ArtifactReason = "total_ratio"     // the archive inflates more than the ratio limit

	// TooLarge: over a configured cap.
	ReasonTooManyEntries ArtifactReason = "too_many_entries"
	ReasonTooLarge       ArtifactReason = "too_large" // total uncompressed size over the cap
)

var reasonCodes = map[ArtifactReason]errs.Code{
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
func (r ArtifactReason) Code() errs.Code {
	if c, ok := reasonCodes[r]; ok {
		return c
	}
	return errs.ArtifactCorrupt
}
