package termtext

import (
	"fmt"
	"io"
	"path/filepath"
	"text/tabwriter"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
)

// Files prints what --file would send: each file's name as sent, size and
// path (and what it was renamed from), then the count, the total and how
// they would go (attached, or inlined into the prompt); nothing was sent.
func Files(w io.Writer, files []attach.File, inline bool) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	var total int64
	for _, f := range files {
		total += f.Bytes
		from := f.Path
		if f.Renamed() {
			from += " (renamed from " + f.RenamedFrom + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\n", safetext.Line(f.Name), attach.Size(f.Bytes), safetext.Line(from))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	how := "attached"
	if inline {
		how = "inlined into the prompt"
	}
	_, err := fmt.Fprintf(w, "%d files, %s, would be %s; nothing was sent\n", len(files), attach.Size(total), how)
	return err
}

// Zips writes the outcome of each zip in words: saved paths on stdout,
// the rest, the warnings and the receipt's path on stderr.
func Zips(stdout, stderr io.Writer, zips []record.ZipReceipt, warnings []string, receipt string) {
	for _, z := range zips {
		switch {
		case z.Verified:
			fmt.Fprintf(stdout, "%s\n", safetext.Line(z.SavedPath))
			fmt.Fprintf(stderr, "saved %s: %d files, %d bytes, sha256 %s\n", safetext.Line(filepath.Base(z.SavedPath)), z.Files, z.Size, z.SHA256)
		case z.Quarantined:
			fmt.Fprintf(stderr, "quarantined %s as %s (%s)\n", safetext.Line(z.SandboxPath), safetext.Line(z.SavedPath), z.Error.Code)
		case z.Error != nil:
			fmt.Fprintf(stderr, "not saved %s (%s)\n", safetext.Line(z.SandboxPath), z.Error.Code)
		}
	}
	for _, w := range warnings {
		fmt.Fprintf(stderr, "warning: %s\n", safetext.Line(w))
	}
	if receipt != "" {
		fmt.Fprintf(stderr, "receipt %s\n", receipt)
	}
}
