package cli

import (
	"flag"
	"os"

	"github.com/ferrydesk/ferry/backend/attach"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// registerFileFlags defines --file, --files-report and --inline-files (ask,
// code).
func registerFileFlags(fs *flag.FlagSet) {
	fs.Var(&stringList{}, "file", "attach this file; a directory or a glob is expanded, !PATTERN excludes (repeatable)")
	fs.Bool("files-report", false, "print the files --file would send, with their sizes, and send nothing")
	fs.Bool("inline-files", false, "paste the --file text files into the prompt as one fenced, line-numbered bundle instead of attaching them")
}

// withFiles sets the files of req from --file (expanded to absolute paths
// from the working directory) and --inline-files. Errors: attach.Expand's
// (errs.BadInput); --inline-files or --files-report without --file.
func withFiles(inv *invocation, req *service.JobRequest) error {
	entries := inv.fs.Lookup("file").Value.(flag.Getter).Get().([]string)
	inline, report := inv.flag("inline-files").(bool), inv.flag("files-report").(bool)
	if len(entries) == 0 {
		if inline || report {
			return errs.New(errs.BadInput, "--inline-files and --files-report need --file").WithHint("e.g. `ferry ask --site chatgpt --file notes.txt \"summarise\"`")
		}
		return nil
	}
	wd, err := os.Getwd()
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "read the working directory: %v", err)
	}
	paths, err := attach.Expand(wd, entries)
	if err != nil {
		return err
	}
	req.Files, req.InlineFiles = paths, inline
	return nil
}

// filesReport prints what --file would send (names as sent, sizes, the
// renames) and sends nothing. Errors: attach.Prepare's local checks.
func filesReport(inv *invocation, req service.JobRequest) error {
	files, err := attach.Prepare(req.Files, attach.Limits{}, "the site")
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(map[string]any{"files": files, "inline": req.InlineFiles, "sent": false})
	}
	return termtext.Files(inv.stdout, files, req.InlineFiles)
}
