package cli

import (
	"context"
	"fmt"
	"text/tabwriter"
	"time"

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
		args:  "list | revoke ID",
		short: "list or revoke the agents paired with the running owner",
		run:   runClients,
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
	switch {
	case len(inv.args) == 1 && inv.args[0] == "list":
	case len(inv.args) == 2 && inv.args[0] == "revoke":
	default:
		return errs.New(errs.BadInput, "ferry clients needs list or revoke ID").WithHint("run `ferry help clients`")
	}
	svc, err := ownerService(ctx, inv, "ferry clients")
	if err != nil {
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
	if len(list) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no paired clients")
		return err
	}
	tw := tabwriter.NewWriter(inv.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tNAME\tAUTO-APPROVE\tPAIRED\tREVOKED")
	for _, c := range list {
		revoked := "-"
		if c.RevokedAt != nil {
			revoked = c.RevokedAt.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%t\t%s\t%s\n", safetext.Line(c.ID), safetext.Line(c.Name), c.AutoApprove, c.CreatedAt.Local().Format("2006-01-02 15:04"), revoked)
	}
	return tw.Flush()
}
