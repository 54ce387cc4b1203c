package clihost

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"github.com/ferrydesk/ferry/backend/cli"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/safetext"
)

func init() {
	cli.Register(cli.Command{
		Name:  "serve",
		Args:  "[--browser-url URL] [--chromium BIN] [--headless]",
		Short: "own the data directory and serve the local API (for machines without the app)",
		Long: `Opens the data directory as its owner, like the desktop app, and serves Ferry's local
API on 127.0.0.1 at a random port until SIGINT or SIGTERM. The port and the owner
token go to the hub file in the data directory (mode 0600), never to the output;
other ferry commands find it there and work through this process.

Jobs run in the browser at --browser-url when given (its tabs are listed too), else
in Ferry's own browser, launched per run. Jobs from paired agents wait for
ferry approvals approve ID unless the client is set to auto-approve.`,
		Flags: func(fs *flag.FlagSet) {
			fs.String("browser-url", "", "run jobs in this browser: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
			fs.String("chromium", "", "Chromium or Chrome executable to launch per run (default: found in PATH)")
			fs.Bool("headless", false, "launch the per-run browser without a window")
		},
		Run: runServe,
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
	c, err := core.Open(ctx, core.Options{DataDir: inv.DataDir(), Role: "serve", Owner: true})
	if err != nil {
		return err
	}
	defer func() {
		// A clean stop backs the history up (core.Options.Owner).
		if err := c.Close(); err != nil {
			fmt.Fprintf(inv.Stderr(), "ferry serve: %v\n", err)
		} else if b := c.LastBackup(); b.Path != "" {
			fmt.Fprintf(inv.Stderr(), "ferry serve: history backed up to %s\n", b.Path)
		}
	}()
	opts := []core.HubOption{core.WithHubAskDefaults(core.AskRequest{
		Headless: inv.Flag("headless").(bool), Chromium: inv.Flag("chromium").(string)})}
	if u := inv.Flag("browser-url").(string); u != "" {
		b, err := browser.Attach(ctx, u)
		if err != nil {
			return err
		}
		defer func() {
			cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			_ = b.Close(cctx)
		}()
		opts = append(opts, core.WithHubBrowser(b))
	}
	backend, err := c.HubBackend(ctx, opts...)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(inv.Stderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))
	srv, err := hub.New(core.NewService(c, backend),
		hub.WithHubFile(c.Paths().HubFile()),
		hub.WithClientStore(c.HubClients()),
		hub.WithEventSource(backend),
		hub.WithLogger(log))
	if err != nil {
		return err
	}
	if err := srv.Start(ctx); err != nil {
		return err
	}
	info := serveInfo{Port: srv.Port(), PID: os.Getpid(), HubFile: c.Paths().HubFile()}
	if inv.JSON() {
		b, _ := json.Marshal(info)
		fmt.Fprintln(inv.Stdout(), string(b))
	} else {
		fmt.Fprintf(inv.Stdout(), "ferry serve: listening on 127.0.0.1:%d (pid %d); hub file %s\n", info.Port, info.PID, info.HubFile)
		if !backend.HasBrowser() {
			fmt.Fprintln(inv.Stdout(), "no browser attached (--browser-url): each job launches Ferry's browser; the tab list is empty")
		}
	}
	go announceApprovals(ctx, srv, inv)
	<-ctx.Done()
	fmt.Fprintln(inv.Stderr(), "ferry serve: stopping")
	cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err = srv.Close(cctx)
	if berr := backend.Close(cctx); err == nil {
		err = berr
	}
	return err
}

// announceApprovals tells the user at the terminal that a job waits for
// them (the desktop app shows a notification instead).
func announceApprovals(ctx context.Context, srv *hub.Server, inv *cli.Invocation) {
	for ev := range srv.Subscribe(ctx, 64) {
		if ev.Type != hub.EventApprovalRequested {
			continue
		}
		ap, ok := ev.Approval()
		if !ok {
			continue
		}
		// Everything of an agent's is escaped (%q, safetext): a raw ESC[8m
		// would hide the rest of the prompt, ESC[2K ESC[1A draw a fake line.
		fmt.Fprintf(inv.Stderr(), "approval needed: job %s from %q (%s on %s): %s\n  ferry approvals approve %s | ferry approvals reject %s\n",
			safetext.Line(ap.JobID), ap.ClientName, safetext.Line(string(ap.Kind)), safetext.Line(ap.Site),
			cli.ApprovalHead(ap, 60), safetext.Line(ap.JobID), safetext.Line(ap.JobID))
	}
}
