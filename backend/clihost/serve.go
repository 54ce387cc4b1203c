package clihost

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

func init() {
	cli.Register(cli.Command{
		Name:  "serve",
		Args:  "[--browser-url URL] [--chromium BIN] [--headless] [--browser-arg ARG]...",
		Short: "own the data directory and serve the local API (for machines without the app)",
		Long: `Opens the data directory as its owner, like the desktop app, and serves Ferry's local
API on 127.0.0.1 at a random port until SIGINT or SIGTERM. The port and the owner
token go to the hub file in the data directory (mode 0600), never to the output;
other ferry commands find it there and work through this process.

Jobs run in the browser at --browser-url when given (its tabs are listed too), else
in Ferry's own browser, launched per run. Jobs from paired agents wait for
ferry approvals approve ID unless the client is set to auto-approve.`,
		Flags: ownerFlags,
		Run:   runServe,
	})
}

// serveInfo is what `ferry serve --json` prints once it listens.
type serveInfo struct {
	Port    int    `json:"port"`
	PID     int    `json:"pid"`
	HubFile string `json:"hubFile"`
}

func runServe(ctx context.Context, inv *cli.Invocation) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.New(slog.NewTextHandler(inv.Stderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))
	o, err := startOwner(ctx, inv, "serve", log)
	if err != nil {
		return err
	}
	srv := o.hub
	info := serveInfo{Port: srv.Port(), PID: os.Getpid(), HubFile: o.core.Paths().HubFile()}
	if inv.JSON() {
		b, _ := json.Marshal(info)
		fmt.Fprintln(inv.Stdout(), string(b))
	} else {
		fmt.Fprintf(inv.Stdout(), "ferry serve: listening on 127.0.0.1:%d (pid %d); hub file %s\n", info.Port, info.PID, info.HubFile)
		if o.browser == nil {
			fmt.Fprintln(inv.Stdout(), "no browser attached (--browser-url): each job launches Ferry's browser; the tab list is empty")
		}
	}
	go o.announceApprovals(ctx, inv.Stderr())
	<-ctx.Done()
	fmt.Fprintln(inv.Stderr(), "ferry serve: stopping")
	return o.stop(inv.Stderr(), "ferry serve")
}

// announceApprovals tells the user at the terminal that a job waits for
// them (the desktop app shows a notification instead), from the owner's
// events until ctx ends.
func (o *owner) announceApprovals(ctx context.Context, w io.Writer) {
	events, err := o.jobs.Service.Events(ctx)
	if err != nil {
		return
	}
	for ev := range events {
		if ev.Type != service.EventApprovalRequested {
			continue
		}
		ap, ok := ev.Approval()
		if !ok {
			continue
		}
		// Everything of an agent's is escaped (%q, safetext): a raw ESC[8m
		// would hide the rest of the prompt, ESC[2K ESC[1A draw a fake line.
		fmt.Fprintf(w, "approval needed: job %s from %q (%s on %s): %s\n  ferry approvals approve %s | ferry approvals reject %s\n",
			safetext.Line(ap.JobID), ap.ClientName, safetext.Line(string(ap.Kind)), safetext.Line(ap.Site),
			cli.ApprovalHead(ap, 60), safetext.Line(ap.JobID), safetext.Line(ap.JobID))
	}
}
