package cli

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "sessions",
		args:  "list|show ID|export ID|doctor|restore [FILE]",
		short: "list, search, show, export and check the history of runs",
		long: `list    [--query Q] [--site S] [--state S] [--tool T] [--limit N]: runs newest first,
        or best match first with --query (fuzzy over prompts, answers, site, model,
        files). --tool keeps the runs that asked for that tool (web-search,
        deep-research, image), --tool none those that asked for none.
show    ID: one run with its journal (an unambiguous id prefix is enough).
export  ID --format md|json: the run as Markdown or JSON, with secrets redacted.
doctor  [--browser-url URL] [--recover]: checks the tabs of active runs; a run whose
        tab is gone or left its site is stale. --recover reopens its conversation in
        a new tab and rebinds the run to it.
restore [FILE]: replaces the history with a backup (the newest in the data
        directory's backups/ when no FILE is given); the store it replaces is
        moved aside as db.damaged-<time>, never deleted. Refused while the app
        or ferry serve owns the data directory.`,
		flags: func(fs *flag.FlagSet) {
			fs.String("query", "", "fuzzy search text")
			fs.String("site", "", "only runs on this site")
			fs.String("state", "", "only runs in this state")
			fs.String("tool", "", "only runs that asked for this tool (none: for no tool)")
			fs.Int("limit", 20, "at most this many runs")
			fs.String("format", "md", "export format: md or json")
			fs.String("browser-url", "", "the browser holding the runs' tabs: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
			fs.Bool("recover", false, "doctor: reopen stale runs' conversations in new tabs and rebind them")
		},
		run: runSessions,
	})
}

// runSessions is ferry sessions, written once against service.Service
// (openService: through a running owner, else in-process).
func runSessions(ctx context.Context, inv *invocation) error {
	if len(inv.args) == 0 {
		return errs.New(errs.BadInput, "ferry sessions needs one of list, show, export, doctor, restore").WithHint("run `ferry help sessions`")
	}
	verb, rest := inv.args[0], inv.args[1:]
	if verb == "restore" {
		return runRestore(ctx, inv, rest)
	}
	need := map[string]int{"list": 0, "show": 1, "export": 1, "doctor": 0}
	n, ok := need[verb]
	if !ok {
		return errs.New(errs.BadInput, "unknown sessions command %q", verb).WithHint("use list, show, export, doctor or restore")
	}
	if len(rest) != n {
		return errs.New(errs.BadInput, "ferry sessions %s takes %d argument(s), got %d", verb, n, len(rest)).WithHint("run `ferry help sessions`")
	}
	named, url := false, ""
	switch verb {
	case "doctor":
		var err error
		if named, url, err = browserflag.Follow(inv.fs); err != nil {
			return err
		}
	case "list":
		if limit := inv.flag("limit").(int); limit <= 0 || limit > 1000 {
			return errs.New(errs.BadInput, "--limit must be between 1 and 1000, got %d", limit)
		}
	case "export":
		if format := inv.flag("format").(string); format != service.FormatMarkdown && format != service.FormatJSON {
			return errs.New(errs.BadInput, "unknown export format %q", format).WithHint("use --format md or --format json")
		}
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	switch verb {
	case "list":
		return sessionsList(ctx, inv, svc)
	case "doctor":
		out, err := svc.DoctorSessions(ctx, cliCaller, service.DoctorRequest{Browser: named, BrowserURL: url, Recover: inv.flag("recover").(bool)})
		if err != nil {
			return err
		}
		if inv.json {
			if out == nil {
				out = []service.DoctorReport{}
			}
			return inv.printJSON(map[string]any{"sessions": out})
		}
		return termtext.Doctor(inv.stdout, out)
	}
	// show is the export of the run: Markdown, or with --json its record and
	// journal.
	format := inv.flag("format").(string)
	if verb == "show" {
		format = service.FormatMarkdown
		if inv.json {
			format = service.FormatJSON
		}
	}
	ex, err := svc.ExportSession(ctx, cliCaller, service.ExportRequest{ID: rest[0], Format: format})
	if err != nil {
		return err
	}
	body := ex.Body
	if verb == "show" && !inv.json {
		// A terminal reads it: what the site and the prompt hold is
		// escaped, newlines kept. export stays the exact record.
		body = safetext.Block(body)
		one, err := svc.ShowSession(ctx, cliCaller, service.SessionRef{ID: ex.ID})
		if err != nil {
			return err
		}
		if one.Detail != nil {
			if one.Detail.Session != nil {
				body += termtext.Attachments(one.Detail.Session.Attachments)
			}
			body += termtext.Thread(ex.ID, one.Detail.Thread)
		}
	}
	_, err = io.WriteString(inv.stdout, body)
	return err
}

// runRestore is ferry sessions restore [FILE], through the installed
// Restorer. Errors: errs.BadInput for more than one FILE; errs.Internal for
// a binary built without a Restorer; the Restorer's.
func runRestore(ctx context.Context, inv *invocation, rest []string) error {
	if len(rest) > 1 {
		return errs.New(errs.BadInput, "ferry sessions restore takes at most one FILE, got %d arguments", len(rest)).WithHint("run `ferry help sessions`")
	}
	if restorer == nil {
		return errs.New(errs.Internal, "this ferry binary cannot restore the history itself").
			WithHint("build ferry from backend/cmd/ferry, which links it")
	}
	file := ""
	if len(rest) == 1 {
		file = rest[0]
	}
	return restorer(ctx, inv, file)
}

func sessionsList(ctx context.Context, inv *invocation, svc service.Service) error {
	q := service.SessionQuery{Query: inv.flag("query").(string), Site: inv.flag("site").(string), State: inv.flag("state").(string),
		Tool: inv.flag("tool").(string), Limit: inv.flag("limit").(int)}
	sums, err := svc.ListSessions(ctx, cliCaller, q)
	if err != nil {
		return err
	}
	items := make([]service.Listed, 0, len(sums))
	total := 0
	for _, s := range sums {
		x := s.Extra
		if x == nil || x.Listed.Session == nil {
			return errs.New(errs.Internal, "the owner's listing of session %s carries no record; is it an older Ferry?", s.ID)
		}
		items = append(items, x.Listed)
		total = x.Total
	}
	return printSessionList(inv, items, total)
}

// printSessionList prints a listing.
func printSessionList(inv *invocation, items []service.Listed, total int) error {
	if inv.json {
		type row struct {
			ID       string         `json:"id"`
			Site     string         `json:"site"`
			State    record.State   `json:"state"`
			Tool     string         `json:"tool,omitempty"`
			Created  time.Time      `json:"created"`
			Prompt   string         `json:"prompt"`
			Answer   string         `json:"answer,omitempty"`
			Model    string         `json:"model,omitempty"`
			Origin   record.Origin  `json:"origin,omitempty"`
			Snippet  string         `json:"snippet,omitempty"`
			Score    int            `json:"score,omitempty"`
			Matches  any            `json:"matches,omitempty"`
			Warnings []string       `json:"warnings,omitempty"`
			Error    *errs.Envelope `json:"error,omitempty"`
		}
		rows := make([]row, 0, len(items))
		for _, it := range items {
			s := it.Session
			rows = append(rows, row{ID: s.ID, Site: s.Site, State: s.State, Tool: s.ToolAsked(), Created: s.Created, Prompt: s.Prompt,
				Answer: s.Answer, Model: s.Model.Slug, Origin: s.Origin, Snippet: it.Hit.Snippet, Score: it.Hit.Score, Matches: it.Hit.Matches, Warnings: s.Warnings, Error: s.Error})
		}
		return inv.printJSON(map[string]any{"sessions": rows, "total": total})
	}
	return termtext.Sessions(inv.stdout, items, total)
}
