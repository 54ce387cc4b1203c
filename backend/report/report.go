// Package report builds a failure report: one zip a user can attach to an
// issue, holding the tab at the failure (job's snapshot), the run's journal
// and envelope, the versions of Ferry, Chromium and the OS, the site
// definition in force with the user's overrides, and REPORT.md, which reads
// as an issue. It is pure: the caller reads the inputs and writes the zip
// (see service.WriteFileAtomic). Every text in the zip is passed through
// redact.Text with the run's prompt as a literal, so neither the prompt nor
// a token the page showed reaches it; the screenshot, if the run kept one,
// is the page as it was.
package report

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/redact"
	"github.com/ferrydesk/ferry/backend/site"
)

// Environment is what the report says of the machine.
type Environment struct {
	Ferry  string `json:"ferry"`  // Ferry's version and commit
	OS     string `json:"os"`     // "linux/amd64, Debian GNU/Linux 13 (trixie)"
	Chrome string `json:"chrome"` // Chromium's product string when the run failed ("" when unknown)
}

// Input is what a report is built from.
type Input struct {
	Session  *job.Session
	Journal  []job.Entry
	Snapshot *provider.Snapshot // nil when the run kept none
	// Site is the site definition in force (built-in merged with the
	// user's overrides); Overrides are the user's overrides of that site,
	// as the settings hold them.
	Site      *site.Site
	Overrides []json.RawMessage
	Env       Environment
	Now       time.Time
}

// Build returns the zip of in and the names of the files in it. Errors:
// errs.BadInput for a run that did not fail (nothing to report); an
// encoding failure as errs.Internal.
func Build(in Input) ([]byte, []string, error) {
	s := in.Session
	if s == nil {
		return nil, nil, errs.New(errs.BadInput, "no run to report on")
	}
	if s.Error == nil && s.State == job.StateDone {
		return nil, nil, errs.New(errs.BadInput, "run %s did not fail: there is nothing to report", s.ID).
			WithHint("ferry report is for a run that failed; `ferry sessions export %s` shares a finished one", s.ID)
	}
	secrets := redact.Literals(s.Prompt)
	if s.Answer != "" {
		secrets = append(secrets, redact.Literals(s.Answer)...)
	}
	clean := func(v string) string { return redact.Text(v, secrets...) }

	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	var names []string
	put := func(name string, body []byte) error {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: name, Method: zip.Deflate, Modified: in.Now})
		if err != nil {
			return err
		}
		names = append(names, name)
		_, err = io.Copy(w, bytes.NewReader(body))
		return err
	}
	putText := func(name, body string) error { return put(name, []byte(clean(body))) }
	putJSON := func(name string, v any) error {
		b, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return err
		}
		return putText(name, string(b)+"\n")
	}

	files := []func() error{
		func() error { return putText("REPORT.md", Markdown(in)) },
		func() error { return putJSON("session.json", sessionView(s)) },
		func() error { return putJSON("journal.json", in.Journal) },
		func() error { return putJSON("envelope.json", s.Error) },
		func() error { return putJSON("environment.json", in.Env) },
		func() error {
			return putJSON("site.json", struct {
				InForce   *site.Site        `json:"inForce"`
				Overrides []json.RawMessage `json:"userOverrides"`
			}{in.Site, in.Overrides})
		},
	}
	if sn := in.Snapshot; sn != nil {
		files = append(files,
			func() error { return putText("snapshot/page.html", sn.DOM) },
			func() error { return putJSON("snapshot/selectors.json", sn.Roles) },
			func() error { return putText("snapshot/console.txt", strings.Join(sn.Console, "\n")+"\n") },
			func() error {
				return putJSON("snapshot/page.json", struct {
					At           time.Time `json:"at"`
					URL          string    `json:"url"`
					Title        string    `json:"title"`
					Viewport     string    `json:"viewport"`
					DOMTruncated bool      `json:"domTruncated"`
					Browser      string    `json:"browser"`
					Problems     []string  `json:"problems"`
				}{sn.At, sn.URL, sn.Title, sn.Viewport, sn.DOMTruncated, sn.Browser, sn.Problems})
			})
		if len(sn.Screenshot) > 0 {
			files = append(files, func() error { return put("snapshot/screenshot.jpg", sn.Screenshot) })
		}
	}
	for _, f := range files {
		if err := f(); err != nil {
			return nil, nil, errs.Wrap(err, errs.Internal, "write the report of %s: %v", s.ID, err)
		}
	}
	if err := zw.Close(); err != nil {
		return nil, nil, errs.Wrap(err, errs.Internal, "close the report of %s: %v", s.ID, err)
	}
	return buf.Bytes(), names, nil
}

// session is the run as a report shows it: everything but the prompt and
// the answer, which are given by their length.
type session struct {
	ID             string              `json:"id"`
	Site           string              `json:"site"`
	ModelRequested string              `json:"modelRequested,omitempty"`
	Model          provider.ModelProof `json:"model"`
	State          job.State           `json:"state"`
	StateBefore    job.State           `json:"stateBefore,omitempty"`
	Created        time.Time           `json:"created"`
	Updated        time.Time           `json:"updated"`
	Origin         job.Origin          `json:"origin"`
	Template       string              `json:"template,omitempty"`
	Contract       string              `json:"contract,omitempty"`
	CodeMode       bool                `json:"codeMode,omitempty"`
	PromptChars    int                 `json:"promptChars"`
	AnswerChars    int                 `json:"answerChars"`
	Warnings       []string            `json:"warnings,omitempty"`
	Error          *errs.Envelope      `json:"error,omitempty"`
	Routing        *provider.Routing   `json:"routing,omitempty"`
	Transport      *provider.Transport `json:"transport,omitempty"`
	Timings        *provider.Timings   `json:"timings,omitempty"`
}

func sessionView(s *job.Session) session {
	r := s.Redacted()
	return session{ID: r.ID, Site: r.Site, ModelRequested: r.ModelRequested, Model: r.Model, State: r.State, StateBefore: r.StateBefore,
		Created: r.Created, Updated: r.Updated, Origin: r.Origin, Template: r.Template, Contract: r.Contract, CodeMode: r.CodeMode,
		PromptChars: len([]rune(s.Prompt)), AnswerChars: len([]rune(s.Answer)), Warnings: r.Warnings, Error: r.Error,
		Routing: r.Routing, Transport: r.Transport, Timings: r.Timings}
}

// steps names what the pipeline does from each state on.
var steps = map[job.State]string{
	job.StateResolved:    "get the tab ready (the page loaded, logged in, no interstitial, the composer there)",
	job.StatePreflighted: "type the prompt into the composer and read it back",
	job.StateComposed:    "click send",
	job.StateSubmitting:  "confirm that the prompt left (a new user turn, the answer request or a stop control)",
	job.StateSubmitted:   "wait for the answer to finish",
	job.StateStreaming:   "wait for the answer to finish",
	job.StateCompleted:   "extract the answer",
	job.StateExtracted:   "retrieve the artifacts",
}

// rolesOf are the selector roles a failure at a stage involves.
var rolesOf = map[errs.Stage][]site.Role{
	errs.StageComposer: {site.RoleComposer, site.RoleReady, site.RoleLoggedIn, site.RoleLoggedOut},
	errs.StageSend:     {site.RoleSend, site.RoleComposer, site.RoleUserTurn, site.RoleStop},
	errs.StagePoll:     {site.RoleAssistantTurn, site.RoleAnswerBody, site.RoleStop, site.RoleBusy, site.RoleFinished},
	errs.StageSession:  {site.RoleLoggedIn, site.RoleLoggedOut, site.RoleComposer},
}

// lastState is the state the run was in when it failed.
func lastState(s *job.Session, journal []job.Entry) job.State {
	if s.StateBefore != "" {
		return s.StateBefore
	}
	for i := len(journal) - 1; i >= 0; i-- {
		if st := journal[i].State; st != job.StateFailed && st != job.StateCancelled && st != job.StateStale {
			return st
		}
	}
	return s.State
}

// Markdown is REPORT.md: the failure as an issue reads (what was asked of
// which site, which step failed, what Ferry saw, what it expected), not yet
// redacted (Build redacts it).
func Markdown(in Input) string {
	s := in.Session
	env := s.Error
	if env == nil {
		env = errs.New(errs.Internal, "the run stopped in state %s without an error", s.State)
	}
	name, address := s.Site, ""
	if in.Site != nil {
		name, address = in.Site.Name, in.Site.Address
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: `%s` while trying to %s\n\n", name, env.Code, stepOf(lastState(s, in.Journal)))
	b.WriteString("## What was asked\n\n")
	model := s.ModelRequested
	if model == "" {
		model = "whatever was selected"
	}
	fmt.Fprintf(&b, "A prompt of %d characters (its text is not in this report) to %s (%s), model %s, from %s, on %s (run `%s`).\n\n",
		len([]rune(s.Prompt)), name, address, model, s.Origin, s.Created.UTC().Format(time.RFC3339), s.ID)
	b.WriteString("## Which step failed\n\n")
	fmt.Fprintf(&b, "The run reached **%s** and failed while trying to %s.\n\n", lastState(s, in.Journal), stepOf(lastState(s, in.Journal)))
	fmt.Fprintf(&b, "- Error: `%s` (stage %s): %s\n", env.Code, env.Stage, env.Message)
	if env.RetryHint != "" {
		fmt.Fprintf(&b, "- Ferry's hint: %s\n", env.RetryHint)
	}
	ev := redact.Evidence(env.Evidence)
	keys := make([]string, 0, len(ev))
	for k := range ev {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "- %s: %s\n", k, ev[k])
	}
	b.WriteString("\nJournal:\n\n")
	for _, e := range in.Journal {
		fmt.Fprintf(&b, "- %s %s", e.At.UTC().Format("15:04:05.000"), e.State)
		if e.Note != "" {
			fmt.Fprintf(&b, ": %s", e.Note)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n## What Ferry saw\n\n")
	sn := in.Snapshot
	if sn == nil {
		b.WriteString("No snapshot of the tab was kept (the run failed before its page was looked at, or the tab was gone).\n\n")
	} else {
		fmt.Fprintf(&b, "The tab at %s: %s, titled %q, viewport %s, in %s.\n\n", sn.At.UTC().Format(time.RFC3339), sn.URL, sn.Title, sn.Viewport, sn.Browser)
		if len(sn.Console) > 0 {
			fmt.Fprintf(&b, "The page's console had %d errors; the first:\n\n", len(sn.Console))
			for _, l := range sn.Console[:min(5, len(sn.Console))] {
				fmt.Fprintf(&b, "    %s\n", l)
			}
			b.WriteString("\n")
		} else {
			b.WriteString("The page's console had no errors.\n\n")
		}
		for _, p := range sn.Problems {
			fmt.Fprintf(&b, "- Not taken: %s\n", p)
		}
		b.WriteString("Selectors of the site, as they matched on the page (matches / rendered, first match):\n\n")
		b.WriteString("| role | selector | matches | rendered | first match |\n|---|---|---|---|---|\n")
		for _, r := range sn.Roles {
			for _, p := range r.Selectors {
				first := p.First
				if p.Invalid {
					first = "(the page refused the selector)"
				}
				fmt.Fprintf(&b, "| %s | `%s` | %d | %d | %s |\n", r.Role, strings.ReplaceAll(p.Selector, "|", `\|`), p.Matches, p.Visible, strings.ReplaceAll(first, "|", `\|`))
			}
		}
		b.WriteString("\nThe page itself is in `snapshot/page.html` (redacted)")
		if len(sn.Screenshot) > 0 {
			b.WriteString(", its picture in `snapshot/screenshot.jpg` (not redacted: look at it before you share it)")
		}
		b.WriteString(".\n\n")
	}
	b.WriteString("## What Ferry expected\n\n")
	fmt.Fprintf(&b, "To %s", stepOf(lastState(s, in.Journal)))
	if roles := rolesOf[env.Stage]; len(roles) > 0 && in.Site != nil {
		b.WriteString(", with these roles of the site matching an element on the page:\n\n")
		for _, r := range roles {
			if sels := in.Site.Selector(r); len(sels) > 0 {
				fmt.Fprintf(&b, "- %s: one of `%s`%s\n", r, strings.Join(sels, "`, `"), matched(sn, r))
			}
		}
	} else {
		b.WriteString(".\n")
	}
	b.WriteString("\n## Environment\n\n")
	fmt.Fprintf(&b, "- Ferry: %s\n- Chromium: %s\n- OS: %s\n", in.Env.Ferry, orUnknown(in.Env.Chrome), in.Env.OS)
	if len(in.Overrides) > 0 {
		fmt.Fprintf(&b, "- Site overrides in settings: %d (in `site.json`)\n", len(in.Overrides))
	} else {
		b.WriteString("- Site overrides in settings: none\n")
	}
	return b.String()
}

func stepOf(st job.State) string {
	if s, ok := steps[st]; ok {
		return s
	}
	return "go on from " + string(st)
}

// matched says how a role fared in the snapshot.
func matched(sn *provider.Snapshot, r site.Role) string {
	if sn == nil {
		return ""
	}
	for _, p := range sn.Roles {
		if p.Role != r {
			continue
		}
		for _, sp := range p.Selectors {
			if sp.Visible > 0 {
				return fmt.Sprintf(" (on the page: `%s` matched %s)", sp.Selector, sp.First)
			}
		}
		return " (on the page: **none matched a rendered element**)"
	}
	return ""
}

func orUnknown(s string) string {
	if s == "" {
		return "unknown"
	}
	return s
}
