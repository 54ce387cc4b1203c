package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
)

func init() {
	register(&command{
		name:  "sessions",
		args:  "list|show ID|export ID|doctor",
		short: "list, search, show, export and check the history of runs",
		long: `list    [--query Q] [--site S] [--state S] [--limit N]: runs newest first, or best
        match first with --query (fuzzy over prompts, answers, site, model, files).
show    ID: one run with its journal (an unambiguous id prefix is enough).
export  ID --format md|json: the run as Markdown or JSON, with secrets redacted.
doctor  [--browser-url URL] [--recover]: checks the tabs of active runs; a run whose
        tab is gone or left its site is stale. --recover reopens its conversation in
        a new tab and rebinds the run to it.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("query", "", "fuzzy search text")
			fs.String("site", "", "only runs on this site")
			fs.String("state", "", "only runs in this state")
			fs.Int("limit", 20, "at most this many runs")
			fs.String("format", "md", "export format: md or json")
			fs.String("browser-url", "", "the browser holding the runs' tabs: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
			fs.Bool("recover", false, "doctor: reopen stale runs' conversations in new tabs and rebind them")
		},
		run: runSessions,
	})
}

// openSessions opens the data directory and its session repository; close
// the Core when done.
func openSessions(ctx context.Context, inv *invocation) (*core.Core, *job.Repo, error) {
	c, err := core.Open(ctx, core.Options{DataDir: inv.dataDir, Role: "cli"})
	if err != nil {
		return nil, nil, err
	}
	repo, err := c.Sessions(ctx)
	if err != nil {
		c.Close()
		return nil, nil, err
	}
	return c, repo, nil
}

func runSessions(ctx context.Context, inv *invocation) error {
	if len(inv.args) == 0 {
		return errs.New(errs.BadInput, "ferry sessions needs one of list, show, export, doctor").WithHint("run `ferry help sessions`")
	}
	verb, rest := inv.args[0], inv.args[1:]
	need := map[string]int{"list": 0, "show": 1, "export": 1, "doctor": 0}
	n, ok := need[verb]
	if !ok {
		return errs.New(errs.BadInput, "unknown sessions command %q", verb).WithHint("use list, show, export or doctor")
	}
	if len(rest) != n {
		return errs.New(errs.BadInput, "ferry sessions %s takes %d argument(s), got %d", verb, n, len(rest)).WithHint("run `ferry help sessions`")
	}
	c, repo, err := openSessions(ctx, inv)
	if err != nil {
		return err
	}
	defer c.Close()
	switch verb {
	case "list":
		return sessionsList(ctx, inv, repo)
	case "show":
		return sessionsShow(ctx, inv, repo, rest[0])
	case "export":
		return sessionsExport(ctx, inv, repo, rest[0])
	}
	return sessionsDoctor(ctx, inv, repo)
}

func sessionsList(ctx context.Context, inv *invocation, repo *job.Repo) error {
	limit := inv.flag("limit").(int)
	if limit <= 0 || limit > 1000 {
		return errs.New(errs.BadInput, "--limit must be between 1 and 1000, got %d", limit)
	}
	f := job.Filter{Query: inv.flag("query").(string), Site: inv.flag("site").(string), State: job.State(inv.flag("state").(string)), Limit: limit}
	items, total, err := repo.List(ctx, f)
	if err != nil {
		return err
	}
	return printSessionList(inv, items, total)
}

// printSessionList prints a listing (embedded or through the hub alike).
func printSessionList(inv *invocation, items []job.Listed, total int) error {
	if inv.json {
		type row struct {
			ID       string         `json:"id"`
			Site     string         `json:"site"`
			State    job.State      `json:"state"`
			Created  time.Time      `json:"created"`
			Prompt   string         `json:"prompt"`
			Answer   string         `json:"answer,omitempty"`
			Model    string         `json:"model,omitempty"`
			Origin   job.Origin     `json:"origin,omitempty"`
			Snippet  string         `json:"snippet,omitempty"`
			Score    int            `json:"score,omitempty"`
			Matches  any            `json:"matches,omitempty"`
			Warnings []string       `json:"warnings,omitempty"`
			Error    *errs.Envelope `json:"error,omitempty"`
		}
		rows := make([]row, 0, len(items))
		for _, it := range items {
			s := it.Session
			rows = append(rows, row{ID: s.ID, Site: s.Site, State: s.State, Created: s.Created, Prompt: s.Prompt,
				Answer: s.Answer, Model: s.Model.Slug, Origin: s.Origin, Snippet: it.Hit.Snippet, Score: it.Hit.Score, Matches: it.Hit.Matches, Warnings: s.Warnings, Error: s.Error})
		}
		return inv.printJSON(map[string]any{"sessions": rows, "total": total})
	}
	if len(items) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no sessions match")
		return err
	}
	tw := tabwriter.NewWriter(inv.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tSITE\tSTATE\tCREATED\tPROMPT")
	for _, it := range items {
		s := it.Session
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", s.ID, s.Site, s.State, s.Created.Local().Format("2006-01-02 15:04"), oneLine(s.Prompt, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if total > len(items) {
		fmt.Fprintf(inv.stdout, "(%d of %d; raise --limit for more)\n", len(items), total)
	}
	return nil
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

func sessionsShow(ctx context.Context, inv *invocation, repo *job.Repo, ref string) error {
	s, j, err := core.ShowSession(ctx, repo, ref)
	if err != nil {
		return err
	}
	return printSessionShow(inv, s, j)
}

// printSessionShow prints one run with its journal (embedded or through the
// hub alike).
func printSessionShow(inv *invocation, s *job.Session, j []job.Entry) error {
	if inv.json {
		return inv.printJSON(map[string]any{"session": job.Redacted(s), "journal": j})
	}
	b, err := job.Export(s, j, job.FormatMarkdown)
	if err != nil {
		return err
	}
	_, err = inv.stdout.Write(b)
	return err
}

func sessionsExport(ctx context.Context, inv *invocation, repo *job.Repo, ref string) error {
	format := inv.flag("format").(string)
	if format != job.FormatMarkdown && format != job.FormatJSON {
		return errs.New(errs.BadInput, "unknown export format %q", format).WithHint("use --format md or --format json")
	}
	s, j, err := core.ShowSession(ctx, repo, ref)
	if err != nil {
		return err
	}
	b, err := job.Export(s, j, format)
	if err != nil {
		return err
	}
	_, err = inv.stdout.Write(b)
	return err
}
