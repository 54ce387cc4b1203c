package cli

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/site"
)

func init() {
	follow := func(name, short, long string, run func(context.Context, *invocation) error) {
		register(&command{
			name: name, args: "[--session ID] [--browser-url URL | --browser attach]", short: short, long: long,
			flags: func(fs *flag.FlagSet) {
				fs.String("session", "", "the run (an unambiguous id prefix is enough); default: the only active run")
				registerAttachFlags(fs)
				fs.Duration("timeout", 10*time.Minute, "give up collecting after this long (the run stays collectable)")
			},
			run: run,
		})
	}
	follow("poll", "check a run once: its state, and whether its tab is still fresh",
		`Prints the run's state (and its answer once extracted). With --browser-url an
active run also passes the freshness gate: its tab must still be open on its site,
else session_stale with the candidate tabs.`, runPoll)
	follow("watch", "follow a run to its end, streaming the answer as it grows",
		`Reattaches to the run (never sending its prompt again) and prints the answer's
partial text as it grows, then the answer. Needs --browser-url for an active run.`, runWatch)
	follow("reattach", "resume an interrupted run without sending its prompt again",
		`Resumes the run from its journaled state: before the send it starts over; when
it is unknown whether the send happened it looks for the prompt in the conversation
and says what it found; after the send it only collects the answer.`, runReattach)
}

// pickSession is the run --session names or, without it, the only active
// run (core.PickSession: several active runs fail closed, listed).
func pickSession(ctx context.Context, inv *invocation, repo *job.Repo) (*job.Session, error) {
	return core.PickSession(ctx, repo, inv.flag("session").(string))
}

// freshness is the gate before poll, watch and reattach (core.CheckFresh).
func freshness(ctx context.Context, b *browser.Browser, reg *site.Registry, s *job.Session) error {
	return core.CheckFresh(ctx, b, reg, s)
}

func runPoll(ctx context.Context, inv *invocation) error {
	c, repo, err := openSessions(ctx, inv)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := pickSession(ctx, inv, repo)
	if err != nil {
		return err
	}
	fresh := false
	if s.State.Active() && wantsBrowser(inv) {
		reg, err := siteRegistry(c.Paths())
		if err != nil {
			return err
		}
		b, err := attach(ctx, inv)
		if err != nil {
			return err
		}
		defer b.Close(context.WithoutCancel(ctx))
		if err := freshness(ctx, b, reg, s); err != nil {
			return err
		}
		fresh = true
	}
	return printPoll(inv, s, fresh)
}

// printPoll prints one check of a run (embedded or through the hub alike).
func printPoll(inv *invocation, s *job.Session, fresh bool) error {
	if inv.json {
		return inv.printJSON(map[string]any{"session": job.Redacted(s), "fresh": fresh})
	}
	fmt.Fprintf(inv.stdout, "%s  %s  %s", s.ID, s.Site, s.State)
	if fresh {
		fmt.Fprintf(inv.stdout, "  (%s)", "tab alive")
	}
	fmt.Fprintln(inv.stdout)
	if s.Error != nil {
		fmt.Fprintln(inv.stdout, s.Error.Human())
	}
	if s.Answer != "" {
		fmt.Fprintln(inv.stdout, s.Answer)
	}
	return nil
}

func runWatch(ctx context.Context, inv *invocation) error { return resume(ctx, inv, true) }

func runReattach(ctx context.Context, inv *invocation) error { return resume(ctx, inv, false) }

// resume reattaches to a run after the freshness gate; watch also streams
// partial text.
func resume(ctx context.Context, inv *invocation, stream bool) error {
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, repo, err := openSessions(ctx, inv)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := pickSession(ctx, inv, repo)
	if err != nil {
		return err
	}
	var finding *job.Finding
	if s.State.Active() {
		s, finding, err = reattachWithBrowser(ctx, inv, c, repo, s, stream)
	}
	return printResumed(inv, s, finding, err)
}

// printResumed prints the end of a reattach or watch (embedded or through
// the hub alike) and returns the error to exit with: runErr, the error the
// reattach returned, else the run's own when it failed.
func printResumed(inv *invocation, s *job.Session, finding *job.Finding, runErr error) error {
	if runErr != nil {
		if finding != nil && !inv.json {
			fmt.Fprintln(inv.stderr, "reattach:", finding.Detail)
		}
		return runErr
	}
	if inv.json {
		return inv.printJSON(map[string]any{"session": job.Redacted(s), "finding": finding})
	}
	if finding != nil {
		fmt.Fprintln(inv.stderr, "reattach:", finding.Detail)
	}
	if s.Error != nil && s.State == job.StateFailed {
		return s.Error
	}
	_, err := fmt.Fprintln(inv.stdout, s.Answer)
	return err
}

func reattachWithBrowser(ctx context.Context, inv *invocation, c *core.Core, repo *job.Repo, s *job.Session, stream bool) (*job.Session, *job.Finding, error) {
	reg, err := siteRegistry(c.Paths())
	if err != nil {
		return s, nil, err
	}
	b, err := attach(ctx, inv)
	if err != nil {
		return s, nil, err
	}
	defer b.Close(context.WithoutCancel(ctx))
	return core.ReattachIn(ctx, b, reg, repo, s, watchPrinter(inv, stream))
}

// watchPrinter prints a run's progress for ferry watch (nil for reattach
// and with --json): partial text as it grows, and each state reached.
func watchPrinter(inv *invocation, stream bool) func(job.Event) {
	if !stream || inv.json {
		return nil
	}
	return func(ev job.Event) {
		switch ev.Kind {
		case job.EventPartial:
			if ev.Partial.Rewritten {
				fmt.Fprint(inv.stderr, "\r\033[K")
			}
			fmt.Fprint(inv.stderr, ev.Partial.Added)
		case job.EventState:
			fmt.Fprintf(inv.stderr, "[%s]\n", ev.State)
		}
	}
}

// sessionsDoctor checks the tabs of the active runs; stale ones are marked
// stale, and with --recover reopened from their conversation URL and
// rebound (core.DoctorSessions).
func sessionsDoctor(ctx context.Context, inv *invocation, repo *job.Repo) error {
	var b *browser.Browser
	var reg *site.Registry
	if wantsBrowser(inv) {
		var err error
		if b, err = attach(ctx, inv); err != nil {
			return err
		}
		defer b.Close(context.WithoutCancel(ctx))
		paths, err := core.ResolvePaths(inv.dataDir)
		if err != nil {
			return err
		}
		if reg, err = siteRegistry(paths); err != nil {
			return err
		}
	}
	out, err := core.DoctorSessions(ctx, repo, b, reg, inv.flag("recover").(bool))
	if err != nil {
		return err
	}
	return printDoctor(inv, out)
}

// printDoctor prints the doctor's verdicts (embedded or through the hub
// alike).
func printDoctor(inv *invocation, out []core.DoctorReport) error {
	if inv.json {
		if out == nil {
			out = []core.DoctorReport{}
		}
		return inv.printJSON(map[string]any{"sessions": out})
	}
	if len(out) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no active or stale runs")
		return err
	}
	for _, rp := range out {
		fmt.Fprintf(inv.stdout, "%s  %s  %s  %s", rp.ID, rp.Site, rp.State, rp.Verdict)
		if rp.Detail != "" {
			fmt.Fprintf(inv.stdout, ": %s", rp.Detail)
		}
		if rp.Candidates != "" {
			fmt.Fprintf(inv.stdout, " (candidate tabs: %s)", rp.Candidates)
		}
		fmt.Fprintln(inv.stdout)
	}
	return nil
}
