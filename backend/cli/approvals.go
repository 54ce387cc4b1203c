package cli

import (
	"context"
	"flag"
	"fmt"

	"github.com/ferrydesk/ferry/backend/cli/internal/termtext"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	register(&command{
		name:  "approvals",
		args:  "list | show ID | approve ID | reject ID [--reason R]",
		short: "decide on agents' jobs that wait for your approval",
		long: `Jobs that paired agents submit wait until you approve them (unless the client is set
to auto-approve). These commands talk to the running owner (the Ferry app or
ferry serve).

list            the waiting jobs, oldest first: each prompt's length and its head on
                one line (control characters shown as \x1b, \u202e…)
show ID         the whole prompt of a waiting job, escaped the same way, newlines kept:
                read it before you approve a long one
approve ID      let the job run
reject ID       end it without running it (failed, approval_rejected); --reason is
                passed to the agent`,
		flags: func(fs *flag.FlagSet) {
			fs.String("reason", "", "reject: why, as the agent will read it")
		},
		run: runApprovals,
	})
}

func runApprovals(ctx context.Context, inv *invocation) error {
	verb := ""
	if len(inv.args) > 0 {
		verb = inv.args[0]
	}
	need := map[string]int{"list": 1, "show": 2, "approve": 2, "reject": 2}
	n, ok := need[verb]
	if !ok {
		return errs.New(errs.BadInput, "ferry approvals needs one of list, show ID, approve ID, reject ID").WithHint("run `ferry help approvals`")
	}
	if len(inv.args) != n {
		return errs.New(errs.BadInput, "ferry approvals %s takes %d argument(s), got %d", verb, n-1, len(inv.args)-1).WithHint("run `ferry help approvals`")
	}
	if verb != "reject" && inv.flag("reason").(string) != "" {
		return errs.New(errs.BadInput, "--reason goes with reject only")
	}
	svc, err := ownerService(ctx, inv, "ferry approvals")
	if err != nil {
		return err
	}
	switch verb {
	case "approve":
		j, err := svc.Approve(ctx, cliCaller, service.ApprovalRef{JobID: inv.args[1]})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(j)
		}
		_, err = fmt.Fprintf(inv.stdout, "approved job %s (%s)\n", j.ID, j.State)
		return err
	case "reject":
		j, err := svc.Reject(ctx, cliCaller, service.RejectRequest{JobID: inv.args[1], Reason: inv.flag("reason").(string)})
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(j)
		}
		_, err = fmt.Fprintf(inv.stdout, "rejected job %s (%s)\n", j.ID, j.State)
		return err
	}
	if verb == "show" {
		ap, err := svc.GetApproval(ctx, cliCaller, service.ApprovalRef{JobID: inv.args[1]})
		if errs.Has(err, errs.HubNotFound) {
			return errs.From(err).WithHint("run `ferry approvals list` for the jobs that wait")
		}
		if err != nil {
			return err
		}
		if inv.json {
			return inv.printJSON(ap)
		}
		return termtext.Approval(inv.stdout, ap)
	}
	list, err := svc.ListApprovals(ctx, cliCaller, service.ListApprovalsRequest{})
	if err != nil {
		return err
	}
	if inv.json {
		return inv.printJSON(map[string]any{"approvals": list})
	}
	return termtext.Approvals(inv.stdout, list)
}
