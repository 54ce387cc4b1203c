package clihost

import (
	"context"
	"fmt"
	"github.com/ferrydesk/ferry/backend/cli"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
)

func init() {
	cli.Register(cli.Command{
		Name:  "verify",
		Args:  "FILE.zip",
		Short: "check a zip the way Ferry checks the sandbox's zips, without a browser",
		Long: `Reads FILE.zip with Ferry's verifier and prints the verdict: every entry with its
size, the archive's sha256, and every problem found. Nothing is extracted,
nothing is written, no browser or store is opened.

The checks are those a retrieved zip must pass: the central directory and the
local headers agree and tile the file, every entry inflates to its declared size
with its CRC-32, names are relative and safe (no .., absolute paths, backslashes,
NUL, drive letters, case or Unicode duplicates), no symlink, device, setuid or
encrypted entry, no compression ratio over the limit. The limits (zip size,
entries, total uncompressed size, ratio) come from the settings' artifacts
section.

With --json the verdict is one object (path, ok, size, sha256, entries, files,
totals, problems, and error when the zip fails). Exit codes: 0 the zip is good;
2 the file cannot be read; 7 artifact_corrupt (damaged, truncated, not a zip),
artifact_unsafe (breaks a safety rule) or artifact_too_large (over a limit).`,
		Run: runVerify,
	})
}

// verifyJSON is what `ferry verify --json` prints.
type verifyJSON struct {
	Path string `json:"path"`
	*artifact.Verdict
	Error *errs.Envelope `json:"error,omitempty"`
}

func runVerify(ctx context.Context, inv *cli.Invocation) error {
	if len(inv.Args()) != 1 {
		return errs.New(errs.BadInput, "ferry verify takes exactly one zip file, got %d arguments", len(inv.Args())).
			WithHint("e.g. `ferry verify project.zip`")
	}
	path, err := filepath.Abs(inv.Args()[0])
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "resolve %s: %v", inv.Args()[0], err)
	}
	paths, err := config.ResolvePaths(inv.DataDir())
	if err != nil {
		return err
	}
	s, err := config.Load(paths.SettingsFile())
	if err != nil {
		return err
	}
	// The file's type is checked before it is opened, and it is opened
	// without blocking: opening a FIFO (or a device) for reading would wait
	// for a writer that may never come, deaf to SIGINT and SIGTERM.
	if st, err := os.Stat(path); err != nil {
		return errs.Wrap(err, errs.BadInput, "open %s: %v", path, err).WithHint("pass the path of an existing zip file")
	} else if !st.Mode().IsRegular() {
		return errs.New(errs.BadInput, "%s is not a regular file", path).WithHint("pass the path of a zip file")
	}
	f, err := openNonBlocking(path)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "open %s: %v", path, err).WithHint("pass the path of an existing zip file")
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "stat %s: %v", path, err)
	}
	if !st.Mode().IsRegular() {
		return errs.New(errs.BadInput, "%s is not a regular file", path).WithHint("pass the path of a zip file")
	}
	var v *artifact.Verdict
	var verr error
	if limit := s.Artifacts.MaxZipBytes; st.Size() > limit {
		// Not read at all: the size alone refuses it, as a download would be.
		v = &artifact.Verdict{Size: st.Size(), Entries: []artifact.Entry{}}
		verr = errs.From(artifact.TooLargeError(limit)).WithEvidence("size", fmt.Sprint(st.Size()))
	} else {
		v, verr = artifact.Verify(ctx, f, st.Size(), verifyLimits(s.Artifacts)...)
		if verr != nil && errs.CodeOf(verr) == "" {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return errs.Wrap(verr, errs.BadInput, "read %s: %v", path, verr)
		}
	}
	if verr != nil {
		// The catalog's hints speak of a download; nothing was fetched or
		// quarantined here.
		verr = errs.From(verr).WithHint("%s", verifyHints[errs.CodeOf(verr)])
	}
	if inv.JSON() {
		out := verifyJSON{Path: path, Verdict: v}
		if verr != nil {
			out.Error = errs.From(verr)
		}
		if err := inv.PrintJSON(out); err != nil {
			return err
		}
		if verr != nil {
			return cli.Reported(verr)
		}
		return nil
	}
	printVerdict(inv, path, v)
	return verr
}

// verifyHints are the hints of a refused zip for a file the user has.
var verifyHints = map[errs.Code]string{
	errs.ArtifactCorrupt:  "the zip is damaged, truncated or no zip at all: get a fresh copy",
	errs.ArtifactUnsafe:   "the zip breaks a safety rule (see evidence): do not extract it",
	errs.ArtifactTooLarge: "the zip is over a limit of the settings' artifacts section: raise it there if you trust the file",
}

// verifyLimits are the verifier's limits from the settings' artifacts
// section (validated by config.Load).
func verifyLimits(a config.ArtifactSettings) []artifact.VerifyOption {
	return codemode.VerifyLimits(a)
}

// printVerdict writes the verdict in words: the outcome and hash on stdout
// with the entries, the problems after them.
func printVerdict(inv *cli.Invocation, path string, v *artifact.Verdict) {
	w := inv.Stdout()
	status := "good"
	if !v.OK {
		status = "REFUSED"
	}
	fmt.Fprintf(w, "%s: %s\n", safetext.Line(path), status)
	fmt.Fprintf(w, "  size      %d bytes\n", v.Size)
	if v.SHA256 != "" {
		fmt.Fprintf(w, "  sha256    %s\n", v.SHA256)
	}
	fmt.Fprintf(w, "  entries   %d (%d files), %d bytes uncompressed, %d compressed\n",
		len(v.Entries), v.Files, v.TotalUncompressed, v.TotalCompressed)
	for _, e := range v.Entries {
		name := e.Name
		if e.Dir {
			fmt.Fprintf(w, "  %12s  %s\n", "dir", cli.Printable(name, 200))
			continue
		}
		fmt.Fprintf(w, "  %12d  %s\n", e.Size, cli.Printable(name, 200))
	}
	for _, p := range v.Problems {
		kind := "warning"
		if p.Blocking {
			kind = "problem"
		}
		fmt.Fprintf(w, "  %s: %s\n", kind, cli.Printable(p.String(), 400))
	}
}
