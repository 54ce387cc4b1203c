package library

import (
	"bytes"
	"os"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/artifact"
)

// maxReport bounds the report the library reads to judge its text (a deep
// research's is tens of KB).
const maxReport = 16 << 20

// reportItem decides a report's status: verified when its sidecar is a
// report's (artifact.ReportProvenance, which SaveReport writes), records
// the size and sha256 of the bytes on disk now, and those bytes are text
// (UTF-8 without NUL bytes). Any other Markdown file in the folder is
// listed unverified, as a zip without its sidecar is.
func reportItem(it Item) (Item, error) {
	prov, perr := readReportProvenance(it.Path)
	if prov != nil {
		it.Site, it.Session, it.ConversationURL, it.VerifiedAt = prov.Site, prov.Session, prov.ConversationURL, prov.SavedAt
		it.Title, it.Header, it.Sources = prov.Title, prov.Header, prov.Sources
	}
	it.MIME = "text/markdown"
	var sha string
	var size int64
	if prov != nil {
		sha, size = prov.SHA256, prov.Size
	}
	switch {
	case sidecarFails(&it, perr, sha, size):
	case !textFile(it.Path, it.Size):
		it.Status, it.Reason, it.Why = StatusUnverified, ReasonVerdictFailed, "the file is not text (UTF-8 without NUL bytes)"
	default:
		it.Status = StatusVerified
	}
	return it, nil
}

// textFile reports whether the file at path (of size bytes) is UTF-8 text
// without NUL bytes.
func textFile(path string, size int64) bool {
	if size > maxReport {
		return false
	}
	b, err := os.ReadFile(path)
	return err == nil && int64(len(b)) == size && utf8.Valid(b) && !bytes.Contains(b, []byte{0})
}

// readReportProvenance reads the sidecar of the report at path (see
// readSidecar).
func readReportProvenance(path string) (*artifact.ReportProvenance, error) {
	var p artifact.ReportProvenance
	if err := readSidecar(path, "report", &p); err != nil {
		return nil, err
	}
	return &p, nil
}
