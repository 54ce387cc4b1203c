package cli

import (
	"context"
	"flag"
	"fmt"
	"time"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "pair",
		short: "print a one-time code that pairs an agent with the running owner",
		long: `Asks the running owner (the Ferry app or ferry serve) for a pairing code. The agent
sends it once to POST /v1/pair on the port printed here (with its name) and gets
its own token; the code is single use and expires within five minutes.`,
		run: runPair,
	})
	register(&command{
		name:  "clients",
		args:  "list | revoke ID | grant ID --existing-conversations | grant ID --revoke | folders ID [--add DIR ...] [--remove DIR ...] [--clear]",
		short: "list, revoke or grant the agents paired with the running owner; set the folders they may attach files from",
		long: `These commands talk to the running owner (the Ferry app or ferry serve).

list            the paired clients, revoked ones included
revoke ID       revoke the client's token
grant ID --existing-conversations
                let the client's jobs use your existing tabs, conversations and runs
                (off for a new client: an agent sees and names only what its own
                jobs opened, and a job naming only a site asks in a new chat)
grant ID --revoke
                take that right back
folders ID      list the folders the client may attach files from; with --add DIR
                (repeatable) allow a folder, --remove DIR take one back, --clear
                take them all back. An agent may only attach files under these
                folders (a link out of them does not count); with none, it may
                attach no file`,
		flags: func(fs *flag.FlagSet) {
			fs.Bool("existing-conversations", false, "grant: let the client use your existing tabs, conversations and runs")
			fs.Bool("revoke", false, "grant: take the right back")
			fs.Var(&stringList{}, "add", "folders: allow the client to attach files under this folder (repeatable)")
			fs.Var(&stringList{}, "remove", "folders: take this folder back (repeatable)")
			fs.Bool("clear", false, "folders: take every folder back")
		},
		run: runClients,
	})
}

// pairJSON is what `ferry pair --json` prints.
type pairJSON struct {
	Code      string    `json:"code"`
	ExpiresAt time.Time `json:"expiresAt"`
	Port      int       `json:"port"`
}

func runPair(ctx context.Context, inv *invocation) error {
	if len(inv.args) != 0 {
		return errs.New(errs.BadInput, "ferry pair takes no arguments, got %d", len(inv.args))
	}
	cl, err := needOwner(ctx, inv, "ferry pair")
	if err != nil {
		return err
	}
	code, err := client.NewService(cl).NewPairingCode(ctx, cliCaller, service.PairingRequest{})
	if err != nil {
		return err
	}
	out := pairJSON{Code: code.Code, ExpiresAt: code.ExpiresAt, Port: cl.Endpoint().Port}
	if inv.json {
		return inv.printJSON(out)
	}
	_, err = fmt.Fprintf(inv.stdout, "pairing code: %s\nvalid until %s, once; the agent posts it to http://127.0.0.1:%d/v1/pair\n",
		out.Code, out.ExpiresAt.Local().Format("15:04:05"), out.Port)
	return err
}

func runClients(ctx context.Context, inv *invocation) error {
	grantOn, grantOff := inv.flag("existing-conversations").(bool), inv.flag("revoke").(bool)
	switch {
	case len(inv.args) == 1 && inv.args[0] == "list":
	case len(inv.args) == 2 && inv.args[0] == "revoke":
	case len(inv.args) == 2 && inv.args[0] == "folders":
	case len(inv.args) == 2 && inv.args[0] == "grant":
		if grantOn == grantOff {
			return errs.New(errs.BadInput, "ferry clients grant needs exactly one of --existing-conversations and --revoke").WithHint("run `ferry help clients`")
		}
	default:
		return errs.New(errs.BadInput, "ferry clients needs list, revoke ID, grant ID or folders ID").WithHint("run `ferry help clients`")
	}
	if inv.args[0] != "grant" && (grantOn || grantOff) {
		return errs.New(errs.BadInput, "--existing-conversations and --revoke go with grant only").WithHint("run `ferry help clients`")
	}
	edit, err := foldersEditOf(inv)
	if err != nil {
		return err
	}
	if inv.args[0] != "folders" && edit.changes() {
		return errs.New(errs.BadInput, "--add, --remove and --clear go with folders only").WithHint("run `ferry help clients`")
	}
	svc, err := ownerService(ctx, inv, "ferry clients")
	if err != nil {
		return err
	}
	if inv.args[0] == "folders" {
		return runFolders(ctx, inv, svc, inv.args[1], edit)
	}
	if inv.args[0] == "grant" {
		info, err := svc.GrantClient(ctx, cliCaller, service.GrantRequest{ID: inv.args[1], ExistingConversations: grantOn})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(info)
		}
		what := "may now use your existing tabs, conversations and runs"
		if !info.ExistingConversations {
			what = "uses only the tabs and conversations its own jobs opened"
		}
		_, err = fmt.Fprintf(inv.stdout, "client %s (%s) %s\n", info.ID, info.Name, what)
		return err
	}
	if inv.args[0] == "revoke" {
		info, err := svc.RevokeClient(ctx, cliCaller, service.ClientRef{ID: inv.args[1]})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(info)
		}
		_, err = fmt.Fprintf(inv.stdout, "revoked client %s (%s)\n", safetext.Line(info.ID), safetext.Line(info.Name))
		return err
	}
	list, err := svc.ListClients(ctx, cliCaller, service.ListClientsRequest{})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(map[string]any{"clients": list})
	}
	return termtext.Clients(inv.stdout, list)
}
