package attach

import (
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Checked is one file of Check: the file as it would be sent (named among
// the files accepted with it), or why it would not be.
type Checked struct {
	File
	// Err is the file's refusal (errs.AttachmentRejected for the site's
	// size limit, errs.BadInput for a file that cannot be read or is named
	// twice); nil when the file would be sent.
	Err error
}

// Check checks each of paths as Prepare does and, unlike Prepare, goes on
// after a refused file, so that a composer can show every file's verdict at
// once. The files accepted are named as Prepare names them among
// themselves (two base names alike are both renamed). It returns one
// Checked per path, in order, and the refusal of the set as a whole:
// errs.AttachmentRejected for more files than the site takes in one
// message, errs.BadInput for an empty list.
func Check(paths []string, lim Limits, siteName string) ([]Checked, error) {
	if len(paths) == 0 {
		return nil, errs.New(errs.BadInput, "no file to attach")
	}
	out := make([]Checked, len(paths))
	seen := map[string]bool{}
	var ok []File
	var at []int
	for i, p := range paths {
		out[i].Path = p
		if !filepath.IsAbs(p) {
			out[i].Err = errs.New(errs.BadInput, "attachment path %q is not absolute", p).WithHint("give each file as an absolute path")
			continue
		}
		p = filepath.Clean(p)
		out[i].Path, out[i].Name = p, filepath.Base(p)
		if seen[p] {
			out[i].Err = errs.New(errs.BadInput, "%s is named twice", p).WithEvidence("file", p)
			continue
		}
		seen[p] = true
		f, err := check(p, Limits{MaxFileBytes: lim.MaxFileBytes}, siteName)
		if err != nil {
			out[i].Err = err
			continue
		}
		out[i].File = f
		ok = append(ok, f)
		at = append(at, i)
	}
	rename(ok)
	for j, f := range ok {
		out[at[j]].File = f
	}
	var whole error
	if lim.MaxFiles > 0 && len(paths) > lim.MaxFiles {
		whole = tooMany(len(paths), lim, siteName)
	}
	return out, whole
}
