package cli

import (
	"cmp"
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	follow := func(name, short, long string, run func(context.Context, *invocation) error, resumes bool) {
		args := "[--session ID] [--browser-url URL | --browser attach]"
		if resumes {
			args += " [--chromium PATH] [--headless] [--browser-arg ARG ...]"
		}
		register(&command{
			name: name, args: args, short: short, long: long,
			flags: func(fs *flag.FlagSet) {
				fs.String("session", "", "the run (an unambiguous id prefix is enough); default: the only active run")
				registerAttachFlags(fs)
				if resumes {
					registerRelaunchFlags(fs)
				}
				fs.Duration("timeout", 0, "give up collecting after this long (the run stays collectable); default 10m, 45m for a deep research")
			},
			run: run,
		})
	}
	follow("poll", "check a run once: its state, and whether its tab is still fresh",
		`Prints the run's state (and its answer once extracted). With --browser-url an
active run also passes the freshness gate: its tab must still be open on its site,
else session_stale with the candidate tabs.`, runPoll, false)
	follow("watch", "follow a run to its end, streaming the answer as it grows",
		`Reattaches to the run (never sending its prompt again) and prints the answer's
partial text as it grows, then the answer. Needs --browser-url for an active run,
unless it was sent into a conversation Ferry recorded (as reattach).`, runWatch, true)
	follow("reattach", "resume an interrupted run without sending its prompt again",
		`Resumes the run from its journaled state: before the send it starts over; when
it is unknown whether the send happened it looks for the prompt in the conversation
and says what it found; after the send it only collects the answer.

A run whose browser was lost after the send (browser_disconnected), or whose
Ferry was killed after it, is collected in the browser that runs now
(--browser-url, the owner's, or Ferry's own), or in Ferry's browser launched for
it (--chromium, --headless and --browser-arg apply): its journaled conversation
is opened in a new tab and the answer the site finished is collected, without
sending the prompt again. A deep research is followed to its report.`, runReattach, true)
}

// The commands that follow runs in flight, written once against
// service.Service: through a running owner they use its browser unless
// --browser-url names another; in-process the browser --browser-url or
// --browser attach names.

func runPoll(ctx context.Context, inv *invocation) error {
	named, url, err := browserflag.Follow(inv.fs)
	if err != nil {
		return err
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	res, err := svc.PollSession(ctx, cliCaller, service.PollRequest{Session: inv.flag("session").(string), Browser: named, BrowserURL: url})
	if err != nil {
		return err
	}
	if res.Session == nil || res.Session.ID == "" {
		return errs.New(errs.Internal, "the poll answer carries no run record; is the owner an older Ferry?")
	}
	if inv.json {
		return inv.printJSON(map[string]any{"session": res.Session.Redacted(), "fresh": res.Fresh})
	}
	return termtext.Poll(inv.stdout, res.Session, res.Fresh)
}

func runWatch(ctx context.Context, inv *invocation) error { return resume(ctx, inv, true) }

func runReattach(ctx context.Context, inv *invocation) error { return resume(ctx, inv, false) }

// resume is reattach and watch: the implementation resumes the run as a
// job (or hands back the job that runs it now, never resuming it twice),
// watch prints the job's events as they come, and the end is printed.
// Interrupting the command cancels the job only when this command started
// it (a run stopped after its send stays collectable).
func resume(ctx context.Context, inv *invocation, stream bool) error {
	timeout := inv.flag("timeout").(time.Duration)
	set := false
	inv.fs.Visit(func(f *flag.Flag) { set = set || f.Name == "timeout" })
	if timeout < 0 || timeout == 0 && set {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	named, url, err := browserflag.Follow(inv.fs)
	if err != nil {
		return err
	}
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return err
	}
	defer done()
	launch, err := browserflag.Relaunch(inv.fs, named)
	if err != nil {
		return err
	}
	res, err := svc.ReattachSession(ctx, cliCaller, service.ReattachRequest{Session: inv.flag("session").(string),
		Browser: named, BrowserURL: url, TimeoutMs: timeout.Milliseconds(), Launch: launch})
	if err != nil {
		return err
	}
	j := res.Job
	if !j.Ended() {
		// The job ends at its timeout by itself, then records what
		// reattach found.
		wctx, cancel := context.WithTimeout(ctx, cmp.Or(timeout, service.ResearchTimeout)+jobGrace)
		defer cancel()
		var on func(service.JobEvent) // ferry watch prints the run's progress; reattach and --json do not
		if stream && !inv.json {
			on = termtext.Watch(inv.stderr, isTerminal(inv.stderr))
		}
		j, err = svc.WatchJob(wctx, cliCaller, service.WatchRequest{ID: j.ID}, on)
		if err != nil {
			if res.Started {
				cancelJob(ctx, svc, j.ID)
			}
			name := strings.TrimPrefix(inv.fs.Name(), "ferry ")
			switch {
			case ctx.Err() != nil:
				return errs.Wrap(ctx.Err(), errs.Cancelled, "ferry %s was interrupted (job %s)", name, j.ID)
			case wctx.Err() != nil:
				return errs.New(errs.Timeout, "the run did not end within --timeout %s", timeout).WithEvidence("job", j.ID)
			}
			return err
		}
	}
	d := j.Detail
	if d == nil || d.Run == nil {
		return errs.New(errs.Internal, "job %s ended %s without its run's record", j.ID, j.State)
	}
	var runErr error
	if d.RunError != nil {
		runErr = d.RunError
	}
	return printResumed(inv, d.Run, d.Finding, runErr)
}

// printResumed prints the end of a reattach or watch and returns the error
// to exit with: runErr, the error the reattach returned, else the run's
// own when it failed.
func printResumed(inv *invocation, s *service.Run, finding *record.Finding, runErr error) error {
	if runErr != nil {
		if finding != nil && !inv.json {
			fmt.Fprintln(inv.stderr, "reattach:", safetext.Line(finding.Detail))
		}
		return runErr
	}
	if inv.json {
		return inv.printJSON(map[string]any{"session": s.Redacted(), "finding": finding})
	}
	if finding != nil {
		fmt.Fprintln(inv.stderr, "reattach:", safetext.Line(finding.Detail))
	}
	if s.Error != nil && s.State == record.StateFailed {
		return s.Error
	}
	_, err := fmt.Fprintln(inv.stdout, safetext.Block(s.Answer))
	return err
}
