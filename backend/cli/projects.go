package cli

import (
	"cmp"
	"context"
	"flag"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/confirm"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "projects",
		args:  "list | add-source --project NAME|URL [--yes] FILE... [--site chatgpt] [--browser-url URL | --browser attach|launch]",
		short: "list your ChatGPT projects, or add files to one's sources once you confirm",
		long: `Lists the projects of the account logged in to the site (ChatGPT), as its page
lists them: each project's name and address. ferry ask --project takes either.
Ferry opens a tab of the site for the listing and closes it after; nothing is
sent. The browser is Ferry's own running browser, or the one at --browser-url.

ferry projects add-source --project NAME|URL FILE... adds the files to the
project's sources, as "Add sources" on its page does. The project is named as
for ferry ask --project (exactly, else ignoring case, or its address); the
files are checked first (readable regular files within the site's size limit,
no two of one name). Then it asks "Add 2 files (1.2 KiB) to the project
"Harbour notes"? [y/N]" on the terminal; --yes adds without asking, and without
a terminal it is needed (authorization_required). Nothing is uploaded before
the answer. The files go through the project's Sources tab in a tab Ferry opens
and closes, each proven by the project's list showing it, and each is reported
added, refused (in the site's words) or unconfirmed; exit 0 only when every
file was added.`,
		flags: func(fs *flag.FlagSet) {
			registerBrowserFlags(fs, browserflag.Attach)
			fs.String("site", "chatgpt", "the site of the projects")
			fs.String("project", "", "add-source: the project, by its name or its address")
			fs.Bool("yes", false, "add-source: add without asking (needed without a terminal)")
			fs.Duration("timeout", 0, "give up after this long (default 1m for the list, 10m for add-source)")
		},
		run: runProjects,
	})
}

func runProjects(ctx context.Context, inv *invocation) error {
	args := inv.args
	if len(args) > 0 && args[0] == "add-source" {
		return runAddSource(ctx, inv, args[1:])
	}
	if len(args) > 0 && args[0] == "list" {
		args = args[1:]
	}
	if len(args) > 0 || inv.flag("project").(string) != "" || inv.flag("yes").(bool) {
		return errs.New(errs.BadInput, "ferry projects lists the projects or adds sources (add-source), got %q", strings.Join(inv.args, " ")).WithHint("run `ferry help projects`")
	}
	spec, err := browserflag.Spec(inv.fs, browserflag.Attach)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, cmp.Or(inv.flag("timeout").(time.Duration), time.Minute))
	defer cancel()
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	list, err := svc.ListProjects(ctx, cliCaller, service.ListProjectsRequest{Site: inv.flag("site").(string), Browser: &spec})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(struct {
			Projects []service.Project `json:"projects"`
		}{append([]service.Project{}, list...)})
	}
	return termtext.Projects(inv.stdout, list)
}

// runAddSource is `ferry projects add-source`: the files checked and the
// project resolved (nothing uploaded), the question asked on the terminal
// unless --yes, then the request confirmed. Errors: BadInput for no
// project or file; AuthorizationRequired with neither --yes nor a terminal;
// Cancelled when the answer is not yes; the Service's; the first file not
// added (after the files are printed).
func runAddSource(ctx context.Context, inv *invocation, files []string) error {
	spec, err := browserflag.Spec(inv.fs, browserflag.Attach)
	if err != nil {
		return err
	}
	for i, f := range files {
		if files[i], err = filepath.Abs(f); err != nil {
			return errs.Wrap(err, errs.BadInput, "resolve %s: %v", f, err)
		}
	}
	timeout := cmp.Or(inv.flag("timeout").(time.Duration), 10*time.Minute)
	req := service.AddSourcesRequest{Site: inv.flag("site").(string), Project: inv.flag("project").(string), Files: files, TimeoutMs: timeout.Milliseconds(), Browser: &spec}
	if err := req.Validate(); err != nil {
		return err
	}
	yes := inv.flag("yes").(bool)
	if !yes && !confirm.Terminal(Stdin) {
		return errs.New(errs.AuthorizationRequired, "adding files to a project's sources asks you first, and there is no terminal to ask on; nothing was uploaded").
			WithHint("run it on a terminal to answer, or pass --yes to add without asking")
	}
	ctx, cancel := context.WithTimeout(ctx, timeout+jobGrace)
	defer cancel()
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	if !yes {
		checked, err := svc.AddProjectSources(ctx, cliCaller, req)
		if err != nil {
			return err
		}
		question, err := termtext.SourcesQuestion(inv.stderr, checked)
		if err != nil {
			return err
		}
		if ok, err := confirm.Ask(Stdin, inv.stderr, question); err != nil || !ok {
			return errs.New(errs.Cancelled, "you did not confirm; nothing was uploaded").WithHint("answer y to add the files, or pass --yes")
		}
		req.Project = checked.Project.Address
	}
	req.Confirmed = true
	out, err := svc.AddProjectSources(ctx, cliCaller, req)
	if err != nil {
		return err
	}
	if inv.json {
		err = inv.printJSON(out)
	} else {
		err = termtext.Sources(inv.stdout, out)
	}
	for _, f := range out.Files {
		if err == nil && f.Error != nil && inv.json {
			return errReported{f.Error}
		} else if err == nil && f.Error != nil {
			return f.Error
		}
	}
	return err
}
