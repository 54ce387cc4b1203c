package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/job"
)

// The CLI as a client of a running owner. An owner (the desktop app or
// `ferry serve`) holds the store, so a command that needs it goes through
// the owner's hub instead of opening the store; when no owner runs the
// command works embedded. Both paths print the same output and end with the
// same exit code: the remote variants validate their arguments exactly as
// the embedded ones and print through the same functions.
//
// Commands written once against service.Service (templates, sessions,
// poll, watch, reattach, tabs, open) choose their implementation in
// openService and have no remote variant here; through an owner they use
// its browser (the app's, or ferry serve --browser-url) unless they name
// another with --browser-url. Retrieve needs no store and runs embedded.
// Commands without a remote variant (version, help, doctor, settings,
// verify, sim) never open the store.

// remoteRuns are the commands that have a remote variant.
var remoteRuns = map[string]func(ctx context.Context, inv *invocation, cl *client.Client) error{
	"ask":      remoteAsk,
	"code":     remoteCode,
	"retrieve": remoteRetrieve,
}

// dispatch runs cmd through the owner's hub when it has a remote variant
// and an owner runs, else embedded.
func dispatch(ctx context.Context, cmd *command, inv *invocation) error {
	remote, ok := remoteRuns[cmd.name]
	if !ok {
		return cmd.run(ctx, inv)
	}
	cl, err := ownerClient(ctx, inv)
	if client.IsNoOwner(err) {
		return cmd.run(ctx, inv)
	}
	if err != nil {
		return err
	}
	return remote(ctx, inv, cl)
}

// ownerClient finds the running owner of the data directory through its hub
// file. Errors: a *client.NoOwnerError (errs.HubNotRunning) when none runs;
// the hub file's errors (errs.BadInput for a file others could read).
func ownerClient(ctx context.Context, inv *invocation) (*client.Client, error) {
	paths, err := core.ResolvePaths(inv.dataDir)
	if err != nil {
		return nil, err
	}
	ep, err := client.Discover(ctx, paths.HubFile())
	if err != nil {
		return nil, err
	}
	return client.New(ep), nil
}

// needOwner is ownerClient for the commands that only make sense with a
// running owner (pair, approvals, clients).
func needOwner(ctx context.Context, inv *invocation, what string) (*client.Client, error) {
	cl, err := ownerClient(ctx, inv)
	if client.IsNoOwner(err) {
		return nil, errs.From(err).WithHint("%s needs a running owner: start the Ferry app or `ferry serve` for this data directory", what)
	}
	return cl, err
}

// askPoll is how often a remote ask reads its job's state.
const askPoll = 150 * time.Millisecond

// remoteAsk submits the prompt as a job of the owner (the owner's jobs need
// no approval) and waits for its run to end. The run uses the owner's
// browser: --browser-url, --chromium and --headless are the owner's
// settings then (ferry serve's flags), so they are ignored with a note.
func remoteAsk(ctx context.Context, inv *invocation, cl *client.Client) error {
	in, err := askInputOf(inv)
	if err != nil {
		return err
	}
	prompt, tmpl, vars, siteID, tabID, newChat, timeout, cooldown := in.prompt, in.template, in.vars, in.site, in.tab, in.newChat, in.timeout, in.cooldown
	if inv.flag("browser-url").(string) != "" || inv.flag("chromium").(string) != "" || inv.flag("headless").(bool) {
		fmt.Fprintf(inv.stderr, "note: a Ferry owner runs (%s); the run uses its browser, --browser-url/--chromium/--headless are ignored\n", cl.Endpoint())
	}
	j, err := cl.CreateJob(ctx, hub.JobSpec{Kind: hub.KindAsk, Prompt: prompt, Template: tmpl, Vars: vars, Site: siteID, Model: inv.flag("model").(string), TabID: tabID, NewChat: newChat,
		TimeoutSeconds: int(timeout.Round(time.Second) / time.Second), CooldownSeconds: int(cooldown / time.Second)})
	if err != nil {
		return err
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	tick := time.NewTicker(askPoll)
	defer tick.Stop()
	for !jobEnded(j) {
		select {
		case <-ctx.Done():
			cancelRemote(cl, j.ID)
			return errs.Wrap(ctx.Err(), errs.Cancelled, "ferry ask was interrupted; job %s was cancelled", j.ID)
		case <-deadline.C:
			cancelRemote(cl, j.ID)
			return errs.New(errs.Timeout, "no complete answer within %s", timeout).WithEvidence("job", j.ID)
		case <-tick.C:
		}
		if j, err = cl.GetJob(ctx, j.ID); err != nil {
			return err
		}
	}
	if j.Error != nil {
		return j.Error
	}
	if j.Detail == nil || j.Detail.Run == nil {
		return errs.New(errs.Internal, "job %s ended %s without a session", j.ID, j.State)
	}
	run := core.SessionOf(j.Detail.Run)
	if inv.json {
		return inv.printJSON(askJSON{Session: run.ID, Result: core.ResultOf(run), Policies: policiesOf(run)})
	}
	_, err = fmt.Fprintln(inv.stdout, run.Answer)
	return err
}

// jobEnded reports whether a job will not change any more by itself: its
// run ended (done, failed, cancelled), it went stale, or the owner's run of
// it returned (a run stopped after the send stays collectable by reattach).
func jobEnded(j hub.Job) bool {
	switch st := job.State(j.State); {
	case st.Terminal(), st == job.StateStale:
		return true
	case j.State == hub.StateAwaitingApproval:
		return false
	}
	return j.Ended()
}

func cancelRemote(cl *client.Client, id string) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_, _ = cl.CancelJob(ctx, id)
}
