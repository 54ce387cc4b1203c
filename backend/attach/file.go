package attach

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
)

// File is one file checked for sending: where it is, the name it is sent
// under, its size and its sha256 (the record of an attachment, as the
// journal keeps it).
type File = record.Attachment

// Limits are what a site takes in one message (0: no limit of that kind).
type Limits struct {
	MaxFiles     int
	MaxFileBytes int64
}

// Prepare checks paths in the given order and returns them as Files with
// distinct names. Nothing is attached: it is the check made before the
// browser is touched. Errors: errs.BadInput for an empty list, a relative
// path, the same file twice, a path that is missing, unreadable or not a
// regular file; errs.AttachmentRejected (with the file's name and the
// site's limit) for more files than site takes or a file over its size
// limit.
func Prepare(paths []string, lim Limits, siteName string) ([]File, error) {
	if len(paths) == 0 {
		return nil, errs.New(errs.BadInput, "no file to attach")
	}
	if lim.MaxFiles > 0 && len(paths) > lim.MaxFiles {
		return nil, tooMany(len(paths), lim, siteName)
	}
	seen := map[string]bool{}
	out := make([]File, 0, len(paths))
	for _, p := range paths {
		if !filepath.IsAbs(p) {
			return nil, errs.New(errs.BadInput, "attachment path %q is not absolute", p).
				WithHint("give each file as an absolute path")
		}
		p = filepath.Clean(p)
		if seen[p] {
			return nil, errs.New(errs.BadInput, "%s is named twice", p).WithEvidence("file", p)
		}
		seen[p] = true
		f, err := check(p, lim, siteName)
		if err != nil {
			return nil, err
		}
		out = append(out, f)
	}
	rename(out)
	return out, nil
}

// tooMany is the refusal of n files where the site takes lim.MaxFiles.
func tooMany(n int, lim Limits, siteName string) error {
	return errs.New(errs.AttachmentRejected, "%d files are more than %s takes in one message (%d)", n, siteName, lim.MaxFiles).
		WithEvidence("files", fmt.Sprint(n)).WithEvidence("max_files", fmt.Sprint(lim.MaxFiles)).
		WithEvidence("by", "limits").WithEvidence("sent", "false")
}

// check reads one file: regular, readable, within the size limit; its hash.
func check(p string, lim Limits, siteName string) (File, error) {
	fi, err := os.Stat(p)
	if err != nil {
		return File{}, errs.Wrap(err, errs.BadInput, "cannot read the file to attach %s: %v", p, err).WithEvidence("file", p)
	}
	if !fi.Mode().IsRegular() {
		return File{}, errs.New(errs.BadInput, "%s is not a regular file", p).WithEvidence("file", p).
			WithHint("attach files; a directory is expanded by `--file DIR` on the command line")
	}
	name := filepath.Base(p)
	if lim.MaxFileBytes > 0 && fi.Size() > lim.MaxFileBytes {
		return File{}, errs.New(errs.AttachmentRejected, "%s is %s, over the %s limit of %s per file", name, Size(fi.Size()), siteName, Size(lim.MaxFileBytes)).
			WithEvidence("file", name).WithEvidence("bytes", fmt.Sprint(fi.Size())).
			WithEvidence("max_file_bytes", fmt.Sprint(lim.MaxFileBytes)).WithEvidence("by", "limits").WithEvidence("sent", "false")
	}
	fh, err := os.Open(p)
	if err != nil {
		return File{}, errs.Wrap(err, errs.BadInput, "cannot read the file to attach %s: %v", p, err).WithEvidence("file", p)
	}
	defer fh.Close()
	h := sha256.New()
	n, err := io.Copy(h, fh)
	if err != nil {
		return File{}, errs.Wrap(err, errs.BadInput, "cannot read the file to attach %s: %v", p, err).WithEvidence("file", p)
	}
	return File{Path: p, Name: name, Bytes: n, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Size prints n bytes for people: "512 B", "1.5 KiB", "20.0 MiB".
func Size(n int64) string {
	const k = 1024
	switch {
	case n < k:
		return fmt.Sprintf("%d B", n)
	case n < k*k:
		return fmt.Sprintf("%.1f KiB", float64(n)/k)
	case n < k*k*k:
		return fmt.Sprintf("%.1f MiB", float64(n)/(k*k))
	}
	return fmt.Sprintf("%.1f GiB", float64(n)/(k*k*k))
}

// Names lists the names the files are sent under.
func Names(files []File) []string {
	out := make([]string, len(files))
	for i, f := range files {
		out[i] = f.Name
	}
	return out
}

// Describe is one line per file, "name (size)", for an approval or a
// report.
func Describe(files []File) string {
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString(f.Name + " (" + Size(f.Bytes) + ")")
		if f.Renamed() {
			b.WriteString(" renamed from " + f.RenamedFrom)
		}
	}
	return b.String()
}
