package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "projects",
		args:  "[--site chatgpt] [--browser-url URL | --browser attach|launch]",
		short: "list your ChatGPT projects, by the names and addresses ferry ask --project takes",
		long: `Lists the projects of the account logged in to the site (ChatGPT), as its page
lists them: each project's name and address. ferry ask --project takes either.
Ferry opens a tab of the site for the listing and closes it after; nothing is
sent. The browser is Ferry's own running browser, or the one at --browser-url.`,
		flags: func(fs *flag.FlagSet) {
			registerBrowserFlags(fs, browserflag.Attach)
			fs.String("site", "chatgpt", "the site whose projects to list")
			fs.Duration("timeout", time.Minute, "give up after this long")
		},
		run: runProjects,
	})
}

func runProjects(ctx context.Context, inv *invocation) error {
	if len(inv.args) > 0 {
		return errs.New(errs.BadInput, "ferry projects takes no arguments, got %q", strings.Join(inv.args, " ")).WithHint("run `ferry help projects`")
	}
	spec, err := browserflag.Spec(inv.fs, browserflag.Attach)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, inv.flag("timeout").(time.Duration))
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
	if len(list) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no projects")
		return err
	}
	for _, p := range list {
		if _, err := fmt.Fprintf(inv.stdout, "%s\t%s\n", safetext.Line(p.Name), safetext.Line(p.Address)); err != nil {
			return err
		}
	}
	return nil
}
