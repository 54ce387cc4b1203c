package cli

import (
	"context"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
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
// Commands written once against service.Service (templates; sessions list,
// show and export; ask, code and retrieve) choose their implementation in
// openService and have no remote variant here. The commands that drive a
// browser use the owner's (the app's, or ferry serve --browser-url) unless
// they name their own with --browser-url; tabs and open need no store and
// then simply run embedded. Commands without a remote variant (version, help, doctor,
// settings, verify, sim) never open the store.

// remoteRuns are the commands that have a remote variant.
var remoteRuns = map[string]func(ctx context.Context, inv *invocation, cl *client.Client) error{
	"poll": remotePoll,
	"watch": func(ctx context.Context, inv *invocation, cl *client.Client) error {
		return remoteResume(ctx, inv, cl, true)
	},
	"reattach": func(ctx context.Context, inv *invocation, cl *client.Client) error {
		return remoteResume(ctx, inv, cl, false)
	},
	"tabs": remoteTabs,
	"open": remoteOpen,
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
	paths, err := config.ResolvePaths(inv.dataDir)
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

// askPoll is how often a remote command reads its job's state.
const askPoll = 150 * time.Millisecond

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
