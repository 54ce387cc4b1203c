package cli

import (
	"flag"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// registerSourceFlags defines --repo, --source and --source-as (ask, code),
// with defaultAs the command's way of sending sources.
func registerSourceFlags(fs *flag.FlagSet, defaultAs string) {
	var repo string
	fs.StringVar(&repo, "repo", "", "git checkout the sources come from (with --source)")
	fs.StringVar(&repo, "repo-root", "", "same as --repo")
	src := &stringList{}
	fs.Var(src, "source", "a source path in --repo the prompt is about (repeatable)")
	fs.Var(src, "source-path", "same as --source")
	usage := "how the sources go: zip attaches one zip of their tracked, clean files at HEAD"
	if defaultAs == service.SourceAsProvenance {
		usage += "; provenance names the pushed commit in the prompt"
	}
	fs.String("source-as", defaultAs, usage)
}

// withSources sets the repository (made absolute, as an owner runs
// elsewhere), the source paths and how they go from --repo, --source and
// --source-as. The Service checks the rest (the paths tracked and clean,
// an ask's sources only as a zip). Errors: errs.BadInput.
func withSources(inv *invocation, req *service.JobRequest) error {
	repo, as := inv.flag("repo").(string), inv.flag("source-as").(string)
	req.SourcePaths = inv.flag("source").([]string)
	if repo == "" {
		set := false
		inv.fs.Visit(func(f *flag.Flag) { set = set || f.Name == "source-as" })
		if set {
			return errs.New(errs.BadInput, "--source-as needs --repo DIR and --source PATH").WithHint("e.g. --repo . --source src --source-as zip")
		}
		return nil
	}
	abs, err := filepath.Abs(repo)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "resolve --repo: %v", err)
	}
	req.RepoRoot, req.SourceAs = abs, as
	return nil
}
