package clihost

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/service"
)

// ownerFlags defines the flags of a command that owns the data directory
// for its lifetime (serve, mcp): where its jobs find a browser.
func ownerFlags(fs *flag.FlagSet) {
	fs.String("browser-url", "", "run jobs in this browser: ws://127.0.0.1:PORT/devtools/browser/ID or a DevToolsActivePort path")
	fs.String("chromium", "", "Chromium or Chrome executable to launch per run (default: found in PATH)")
	fs.Bool("headless", false, "launch the per-run browser without a window")
	fs.Var(&argList{}, "browser-arg", "an extra command-line argument for the per-run browser (repeatable)")
}

// argList is a repeatable string flag.
type argList []string

func (l *argList) String() string     { return strings.Join(*l, " ") }
func (l *argList) Set(v string) error { *l = append(*l, v); return nil }
func (l *argList) Get() any           { return []string(*l) }

var _ flag.Getter = (*argList)(nil)

// owner is this process owning the data directory: the core, the runner
// of its jobs and the Service over both (core.Owner), and the hub serving
// it on loopback, as the desktop app does.
type owner struct {
	core    *core.Core
	jobs    *core.Owner
	hub     *hub.Server
	browser *browser.Browser
}

// startOwner opens the data directory as its owner under role and starts
// its hub, the jobs using the browser the command's ownerFlags name.
// Errors: the data directory's (errs.StoreBusy when another process owns
// it), the browser's for --browser-url, the hub's.
func startOwner(ctx context.Context, inv *cli.Invocation, role string, log *slog.Logger) (o *owner, err error) {
	c, err := core.Open(ctx, core.Options{DataDir: inv.DataDir(), Role: role, Owner: true})
	if err != nil {
		return nil, err
	}
	o = &owner{core: c}
	defer func() {
		if err != nil {
			o.closeBrowser()
			_ = c.Close()
		}
	}()
	opts := core.OwnerOptions{Defaults: runs.AskRequest{Headless: inv.Flag("headless").(bool),
		Chromium: inv.Flag("chromium").(string), BrowserArgs: inv.Flag("browser-arg").([]string)}}
	if u := inv.Flag("browser-url").(string); u != "" {
		if o.browser, err = browser.Attach(ctx, u); err != nil {
			return nil, err
		}
		opts.Browser = o.browser
	}
	o.jobs = core.StartOwner(c, opts)
	err = o.jobs.Serve(ctx, func(ctx context.Context, svc service.Gateway) (func(context.Context) error, error) {
		srv, err := hub.Serve(ctx, svc, hub.WithHubFile(c.Paths().HubFile()), hub.WithLogger(log))
		if err != nil {
			return nil, err
		}
		o.hub = srv
		return srv.Close, nil
	})
	if err != nil {
		cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_ = o.jobs.Stop(cctx)
		return nil, err
	}
	return o, nil
}

// stop closes the hub, lets the running jobs end, detaches the browser and
// closes the data directory (which backs the history up), saying so on
// stderr as `name: …`. The error is the hub's or the jobs'.
func (o *owner) stop(stderr io.Writer, name string) error {
	cctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	err := o.jobs.Stop(cctx)
	o.closeBrowser()
	// A clean stop backs the history up (core.Options.Owner).
	if cerr := o.core.Close(); cerr != nil {
		fmt.Fprintf(stderr, "%s: %v\n", name, cerr)
	} else if b := o.core.LastBackup(); b.Path != "" {
		fmt.Fprintf(stderr, "%s: history backed up to %s\n", name, b.Path)
	}
	return err
}

func (o *owner) closeBrowser() {
	if o.browser == nil {
		return
	}
	cctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = o.browser.Close(cctx)
}
