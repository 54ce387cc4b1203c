package clihost

import (
	"context"
	"flag"
	"log/slog"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/mcp"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/version"
)

func init() {
	cli.Register(cli.Command{
		Name:  "mcp",
		Args:  "[--out-root DIR]... [--browser-url URL] [--chromium BIN] [--headless] [--browser-arg ARG]... | config claude|codex|cursor|gemini",
		Short: "serve Ferry to a coding agent over MCP (stdio), or print the agent's config snippet",
		Long: `ferry mcp is an MCP server over stdio for coding agents (Claude Code, Codex, Cursor,
Gemini CLI, …): its tools are ask, code, job, cancel, sessions, session, retrieve,
sites and templates. stdout carries only protocol messages; logs go to stderr.

When an owner runs for the data directory (the Ferry app or ferry serve), it works
through it as a gateway client named after the agent, so the jobs show in Active runs
and the agent's approval rule applies (ask every time unless auto-approved in
Settings → Agents). When none runs, it owns the data directory itself for its
lifetime, as ferry serve does (the browser flags are serve's, and ferry approvals
works against it); a second owner gets store_busy.

A code or retrieve call's out_dir must lie under an --out-root (repeatable; default:
the directory ferry mcp was started in, unless that is / or the home directory).

ferry mcp config AGENT prints the snippet that registers this ferry binary (its
absolute path) in that agent:

  claude   JSON for Claude Code's .mcp.json (project root) or ~/.claude.json
  codex    TOML for Codex's ~/.codex/config.toml
  cursor   JSON for Cursor's ~/.cursor/mcp.json (or .cursor/mcp.json in a project)
  gemini   JSON for Gemini CLI's ~/.gemini/settings.json (mcpServers)

Merge it into the file: an existing "mcpServers" object (or [mcp_servers]
table) keeps its other servers. With --json it prints the agent, the file, the
command, its arguments and the snippet.`,
		Flags: func(fs *flag.FlagSet) {
			ownerFlags(fs)
			fs.Var(&argList{}, "out-root", "a directory an out_dir may lie in (repeatable; default: the working directory)")
		},
		Run: runMCP,
	})
}

func runMCP(ctx context.Context, inv *cli.Invocation) error {
	args := inv.Args()
	if len(args) > 0 && args[0] == "config" {
		return runMCPConfig(inv, args[1:])
	}
	if len(args) > 0 {
		return errs.New(errs.BadInput, "ferry mcp takes no argument but config, got %q", args[0]).WithHint("run `ferry help mcp`")
	}
	return serveMCP(ctx, inv)
}

// serveMCP is `ferry mcp`: the MCP server on stdin and stdout until the
// agent closes stdin or a signal comes. Errors: the data directory's
// (errs.StoreBusy when another process holds it without serving the local
// API), the owner's start, the transport's.
func serveMCP(ctx context.Context, inv *cli.Invocation) error {
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	// The protocol owns stdout: anything else that would print there goes
	// to stderr instead.
	protocol := os.Stdout
	os.Stdout = os.Stderr
	defer func() { os.Stdout = protocol }()
	log := slog.New(slog.NewTextHandler(inv.Stderr(), &slog.HandlerOptions{Level: slog.LevelInfo}))

	paths, err := config.ResolvePaths(inv.DataDir())
	if err != nil {
		return err
	}
	svc, done, err := mcpService(ctx, inv, log)
	if err != nil {
		return err
	}
	roots := outRoots(inv.Flag("out-root").([]string))
	srv := mcp.New(svc, mcp.Options{Version: version.Get().Version, Logger: log, OutRoots: func() []string { return roots },
		PendingDir: paths.MCPPendingDir()})
	out := &syncWriter{w: protocol}
	err = srv.Run(ctx, &mcpsdk.IOTransport{Reader: newJSONLines(os.Stdin, out), Writer: out})
	derr := done()
	if err == nil || ctx.Err() != nil {
		// The agent closed stdin, or a signal asked to stop: both are the
		// session's normal end.
		err = derr
	}
	return err
}

// mcpService is the owner-level Service the MCP server works through: the
// running owner's over its local API, else that of an owner this process
// starts (owning the data directory until done), reached the same way.
// When the owner it works through goes away (the app quits, serve stops),
// the next call finds the one that took over, or starts one, and goes on:
// jobs live in the data directory, so the agent's jobs carry over. Errors:
// as serveMCP's.
func mcpService(ctx context.Context, inv *cli.Invocation, log *slog.Logger) (service.Service, func() error, error) {
	paths, err := config.ResolvePaths(inv.DataDir())
	if err != nil {
		return nil, nil, err
	}
	var (
		mu   sync.Mutex
		mine *owner // the owner this process started, if any
	)
	// own finds the owner serving the data directory, starting one when
	// none does.
	own := func() (client.Endpoint, error) {
		ep, err := client.Discover(ctx, paths.HubFile())
		if err == nil || !client.IsNoOwner(err) {
			if err == nil {
				log.Info("mcp: working through the running owner", "hubFile", paths.HubFile())
			}
			return ep, err
		}
		mu.Lock()
		defer mu.Unlock()
		if mine != nil {
			return client.Endpoint{}, errs.New(errs.HubNotRunning, "the owner this ferry mcp started stopped serving its API").
				WithHint("restart the agent's MCP server (it runs `ferry mcp`)")
		}
		o, err := startOwner(ctx, inv, "mcp", log)
		if errs.Has(err, errs.StoreBusy) {
			// An owner that started a moment ago may serve its API by now.
			if ep, rerr := client.Discover(ctx, paths.HubFile()); rerr == nil {
				log.Info("mcp: working through the running owner", "hubFile", paths.HubFile())
				return ep, nil
			}
		}
		if err != nil {
			return client.Endpoint{}, err
		}
		mine = o
		log.Info("mcp: owning the data directory", "port", o.hub.Port(), "hubFile", paths.HubFile())
		go o.announceApprovals(ctx, inv.Stderr())
		// The server is a client of its own gateway, as of any owner's: it
		// acts as its agent there (so its jobs wait for approval, which
		// `ferry approvals` decides) and one path serves both cases.
		return client.Discover(ctx, paths.HubFile())
	}
	done := func() error {
		mu.Lock()
		defer mu.Unlock()
		if mine == nil {
			return nil
		}
		return mine.stop(inv.Stderr(), "ferry mcp")
	}
	ep, err := own()
	if err != nil {
		_ = done()
		return nil, nil, err
	}
	failover := client.WithFailover(func(context.Context) (client.Endpoint, error) {
		log.Info("mcp: the owner stopped answering; finding the one serving now")
		return own()
	})
	return client.NewService(client.New(ep, failover)), done, nil
}

// outRoots are the directories an out_dir may lie in: those given, else the
// working directory unless it is the filesystem's root or the home
// directory (too wide to write an agent's zips anywhere in).
func outRoots(given []string) []string {
	var out []string
	for _, r := range given {
		if abs, err := filepath.Abs(r); err == nil {
			out = append(out, abs)
		}
	}
	if len(given) > 0 {
		return out
	}
	wd, err := os.Getwd()
	if err != nil {
		return nil
	}
	home, _ := os.UserHomeDir()
	if filepath.Dir(wd) == wd || (home != "" && filepath.Clean(home) == wd) {
		return nil
	}
	return []string{wd}
}
