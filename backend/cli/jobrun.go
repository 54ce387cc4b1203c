package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// jobGrace is how long a job may take beyond its own deadline before the
// command gives up on it: the run ends at its deadline by itself, then
// records what it found (a code run writes its receipt).
const jobGrace = 30 * time.Second

// runJob submits req as a job of the data directory's Service (the
// owner's when one runs, else an in-process one) and follows it to its
// end: with progress, the run's session and its answer as it grows go to
// stderr. It returns the job's final view; its run's error is the Job's
// Error, for the caller to print with the result. The end of ctx
// (Ctrl-C) cancels the job: errs.Cancelled. A job still going timeout +
// jobGrace after it began is cancelled: errs.Timeout with late.
// Errors: openService's; the Service's (req's BadInput, UnknownSite, ...).
func runJob(ctx context.Context, inv *invocation, req service.JobRequest, late string) (service.Job, error) {
	svc, done, err := openService(ctx, inv)
	if err != nil {
		return service.Job{}, err
	}
	defer done()
	j, err := svc.SubmitJob(ctx, cliCaller, req)
	if err != nil {
		return service.Job{}, err
	}
	if req.Browser != nil && j.Detail != nil && j.Detail.Spec.Browser == nil && launchOrURLGiven(inv) {
		fmt.Fprintf(inv.stderr, "note: a Ferry owner runs; the run uses its browser, --browser-url/--chromium/--headless are ignored\n")
	}
	wctx, stop := context.WithTimeout(ctx, req.RunTimeout()+jobGrace)
	defer stop()
	progress := isTerminal(inv.stderr) && !inv.json
	var on func(service.JobEvent)
	if progress {
		on = func(ev service.JobEvent) { termtext.Progress(inv.stderr, ev) }
	}
	j, err = svc.WatchJob(wctx, cliCaller, service.WatchRequest{ID: j.ID}, on)
	if progress {
		fmt.Fprintln(inv.stderr)
	}
	if err == nil {
		return j, nil
	}
	if wctx.Err() == nil {
		return j, err
	}
	cancelJob(ctx, svc, j.ID)
	if ctx.Err() != nil {
		return j, errs.Wrap(ctx.Err(), errs.Cancelled, "ferry %s was interrupted; job %s was cancelled", req.Kind, j.ID)
	}
	return j, errs.New(errs.Timeout, "%s", late).WithEvidence("job", j.ID)
}

// cancelJob cancels job id, also when ctx has ended (Ctrl-C).
func cancelJob(ctx context.Context, svc service.Service, id string) {
	cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 15*time.Second)
	defer cancel()
	_, _ = svc.CancelJob(cctx, cliCaller, service.JobRef{ID: id})
}

// jobRun is the run of a job that ended: its error when it failed, else
// its session. Errors: the run's envelope; errs.Internal for a job that
// ended without a session.
func jobRun(j service.Job) (*service.Run, error) {
	if j.Error != nil {
		return nil, j.Error
	}
	if j.Detail == nil || j.Detail.Run == nil {
		return nil, errs.New(errs.Internal, "job %s ended %s without a session", j.ID, j.State)
	}
	return j.Detail.Run, nil
}

// timeoutSeconds is d in whole seconds, rounded up: a job's deadline is
// never shorter than the --timeout asked for.
func timeoutSeconds(d time.Duration) int { return int((d + time.Second - 1) / time.Second) }
