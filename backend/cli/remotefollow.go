package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/site"
)

// The remote variants of the commands that follow runs in flight (poll,
// watch, reattach, sessions doctor) and of tabs and open. The owner does
// the work on its store and browser with the same functions as the
// embedded commands (package core), and the CLI prints through the same
// functions, so the output and exit codes are the same. Without
// --browser-url the browser is the owner's (the app's, or ferry serve's
// --browser-url), else Ferry's own running browser, as embedded.

// remoteCheck reads the browser flags of poll, watch, reattach and sessions
// doctor as the embedded attach does. A DevToolsActivePort path is made
// absolute: the owner resolves it, from another working directory.
func remoteCheck(inv *invocation) (hub.SessionCheck, error) {
	chk := hub.SessionCheck{Browser: wantsBrowser(inv)}
	if f := inv.fs.Lookup("session"); f != nil {
		chk.Session = f.Value.String()
	}
	if f := inv.fs.Lookup("browser"); f != nil {
		switch v := f.Value.String(); v {
		case "", browserAttach:
		case browserLaunch:
			return chk, errs.New(errs.BadInput, "--browser launch cannot reach a run in flight: it lives in the tabs of a running browser").
				WithHint("pass --browser-url, or --browser attach for Ferry's own browser")
		default:
			return chk, errs.New(errs.BadInput, "--browser must be launch or attach, got %q", v).
				WithHint("launch starts Ferry's own browser; attach connects to --browser-url or to Ferry's running browser")
		}
	}
	u, err := absBrowserURL(inv.flag("browser-url").(string))
	chk.BrowserURL = u
	return chk, err
}

// absBrowserURL makes a DevToolsActivePort path absolute; addresses pass.
func absBrowserURL(u string) (string, error) {
	if u == "" || strings.Contains(u, "://") {
		return u, nil
	}
	abs, err := filepath.Abs(u)
	if err != nil {
		return "", errs.Wrap(err, errs.BadInput, "resolve --browser-url %s: %v", u, err)
	}
	return abs, nil
}

func remotePoll(ctx context.Context, inv *invocation, cl *client.Client) error {
	chk, err := remoteCheck(inv)
	if err != nil {
		return err
	}
	res, err := cl.PollSession(ctx, chk)
	if err != nil {
		return err
	}
	if res.Session == nil || res.Session.ID == "" {
		return errs.New(errs.Internal, "the owner's poll answer carries no run record; is it an older Ferry?")
	}
	return printPoll(inv, core.SessionOf(res.Session), res.Fresh)
}

func remoteDoctor(ctx context.Context, inv *invocation, cl *client.Client) error {
	chk, err := remoteCheck(inv)
	if err != nil {
		return err
	}
	chk.Recover = inv.flag("recover").(bool)
	res, err := cl.DoctorSessions(ctx, chk)
	if err != nil {
		return err
	}
	return printDoctor(inv, res.Sessions)
}

// finalWait is how long watch waits, after the job ended, for the event
// stream to deliver the rest of the partial text.
const finalWait = 3 * time.Second

// remoteResume is reattach and watch through the owner: the owner resumes
// the run as a job (or hands back the job that runs it now), watch prints
// the job's events from the event stream as they come, and the end is
// printed as embedded. Interrupting the command cancels the job (a run
// stopped after its send stays collectable).
func remoteResume(ctx context.Context, inv *invocation, cl *client.Client, stream bool) error {
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	chk, err := remoteCheck(inv)
	if err != nil {
		return err
	}
	chk.TimeoutMs = timeout.Milliseconds()
	printer := watchPrinter(inv, stream)
	var evs <-chan hub.Event
	if printer != nil {
		// Connect before the job exists, so that none of its events is missed.
		fctx, stop := context.WithCancel(ctx)
		defer stop()
		evs = followEvents(fctx, cl)
	}
	res, err := cl.ReattachSession(ctx, chk)
	if err != nil {
		return err
	}
	j := res.Job
	// Only a job this command started is its to cancel: watching a run the
	// owner runs for someone else must not stop it.
	stopJob := func() {
		if res.Started {
			cancelRemote(cl, j.ID)
		}
	}
	// The owner ends the job at --timeout; the margin lets its answer
	// (with what reattach found) arrive first.
	deadline := time.NewTimer(timeout + 30*time.Second)
	defer deadline.Stop()
	tick := time.NewTicker(askPoll)
	defer tick.Stop()
	finalSeen := false
	var endedAt <-chan time.Time
	if jobEnded(j) {
		evs = nil // a run that had ended needs no reattach: nothing will stream
	}
	for !(jobEnded(j) && (evs == nil || finalSeen)) {
		select {
		case <-ctx.Done():
			stopJob()
			return errs.Wrap(ctx.Err(), errs.Cancelled, "ferry %s was interrupted (job %s)", inv.fs.Name()[len("ferry "):], j.ID)
		case <-deadline.C:
			stopJob()
			return errs.New(errs.Timeout, "the run did not end within --timeout %s", timeout).WithEvidence("job", j.ID)
		case ev, ok := <-evs:
			if !ok {
				evs = nil
				continue
			}
			if ev.JobID != j.ID {
				continue
			}
			if final, ok := finalJob(ev); ok {
				j, finalSeen = final, true
				continue
			}
			if je, ok := ev.JobEvent(); ok && je.Run != nil {
				printer(core.EventOf(*je.Run))
			}
		case <-endedAt:
			evs = nil
		case <-tick.C:
			if !jobEnded(j) {
				if j, err = cl.GetJob(ctx, j.ID); err != nil {
					return err
				}
			}
			if jobEnded(j) && evs != nil && endedAt == nil {
				endedAt = time.After(finalWait)
			}
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
	return printResumed(inv, core.SessionOf(d.Run), core.FindingOf(d.Finding), runErr)
}

// finalJob recognises the last event of a job: a run.update carrying the
// job itself, ended.
func finalJob(ev hub.Event) (hub.Job, bool) {
	if ev.Type != hub.EventRunUpdate {
		return hub.Job{}, false
	}
	je, ok := ev.JobEvent()
	if !ok || je.Job == nil || je.Job.ID != ev.JobID || je.Job.Detail == nil {
		return hub.Job{}, false
	}
	return *je.Job, jobEnded(*je.Job)
}

// followEvents opens the owner's event stream and returns its events once
// it is connected (or after a short wait, when it does not connect: the
// command then still ends, without partial text). The channel closes when
// ctx ends.
func followEvents(ctx context.Context, cl *client.Client) <-chan hub.Event {
	out := make(chan hub.Event, 4096)
	connected := make(chan struct{})
	var once sync.Once
	f := client.NewFollower(client.Static(cl.Endpoint()), func(ev hub.Event) {
		select {
		case out <- ev:
		default: // a reader this far behind loses partial text, never the end
		}
	}, client.WithStateHook(func(s client.State) {
		if s == client.StateConnected {
			once.Do(func() { close(connected) })
		}
	}))
	go func() {
		_ = f.Run(ctx)
	}()
	select {
	case <-connected:
	case <-time.After(5 * time.Second):
	case <-ctx.Done():
	}
	return out
}

// remoteTabs lists the owner's browser's tabs. With --browser-url or
// --browser launch the command names its own browser, which needs no
// store: it runs embedded.
func remoteTabs(ctx context.Context, inv *invocation, cl *client.Client) error {
	if ownBrowserNamed(inv) {
		return runTabs(ctx, inv)
	}
	if len(inv.args) > 0 {
		return errs.New(errs.BadInput, "ferry tabs takes no arguments, got %q", strings.Join(inv.args, " ")).WithHint("run `ferry help tabs`")
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	if _, err := browserSpecOf(inv, paths, browserAttach); err != nil {
		return err
	}
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	list, err := cl.ListTabs(ctx)
	if err != nil {
		return err
	}
	targets := make([]browser.Target, 0, len(list))
	for _, t := range list {
		targets = append(targets, browser.Target{ID: t.TargetID, URL: t.URL, Title: t.Title})
	}
	return printTabs(inv, reg, targets)
}

// remoteOpen opens the site in a new tab of the owner's browser. With
// --browser-url or --browser launch it runs embedded (see remoteTabs).
func remoteOpen(ctx context.Context, inv *invocation, cl *client.Client) error {
	if ownBrowserNamed(inv) {
		return runOpen(ctx, inv)
	}
	if len(inv.args) != 1 {
		return errs.New(errs.BadInput, "ferry open takes one site id, got %d arguments", len(inv.args)).
			WithHint("e.g. `ferry open deepseek`; the site ids are those of the site registry")
	}
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return err
	}
	if _, err := browserSpecOf(inv, paths, browserAttach); err != nil {
		return err
	}
	reg, err := siteRegistry(paths)
	if err != nil {
		return err
	}
	s, err := reg.Get(inv.args[0])
	if err != nil {
		return err
	}
	tab, err := cl.OpenTab(ctx, hub.OpenTabRequest{Site: s.ID, TimeoutMs: timeout.Milliseconds()})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(openJSON{ID: tab.TargetID, Site: tab.Site, URL: site.Redact(tab.URL)})
	}
	_, err = fmt.Fprintln(inv.stdout, tab.TargetID)
	return err
}

// ownBrowserNamed reports whether the command names its browser itself
// (--browser-url, or --browser launch), so that it needs nothing of the
// owner's.
func ownBrowserNamed(inv *invocation) bool {
	if f := inv.fs.Lookup("browser-url"); f != nil && f.Value.String() != "" {
		return true
	}
	f := inv.fs.Lookup("browser")
	return f != nil && f.Value.String() != "" && f.Value.String() != browserAttach
}
