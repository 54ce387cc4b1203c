package cli

import (
	"context"
	"fmt"

	"github.com/ferrydesk/ferry/backend/cli/internal/cmddoc"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/version"
)

func init() {
	register(&command{
		name:  "version",
		short: "print Ferry's version",
		run: func(ctx context.Context, inv *invocation) error {
			if inv.json {
				return inv.printJSON(version.Get())
			}
			_, err := fmt.Fprintln(inv.stdout, version.String())
			return err
		},
	})
	register(&command{
		name:  "help",
		args:  "[command | exit-codes]",
		short: "show the commands, one command's usage, or the exit codes",
		run: func(ctx context.Context, inv *invocation) error {
			if len(inv.args) == 0 {
				return cmddoc.Overview(inv.stdout, docs())
			}
			if topic, ok := helpTopics[inv.args[0]]; ok {
				return topic(inv)
			}
			c, ok := commands[inv.args[0]]
			if !ok {
				e := errs.New(errs.UnknownCommand, "no help for unknown command %q", inv.args[0])
				if s := closest(inv.args[0]); s != "" {
					e.WithHint("did you mean `ferry help %s`?", s)
				}
				return e
			}
			return writeCommandHelp(inv.stdout, c)
		},
	})
}
