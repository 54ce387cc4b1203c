package clihost

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/mcpconfig"
)

// mcpConfigInfo is what `ferry mcp config AGENT --json` prints.
type mcpConfigInfo struct {
	mcpconfig.Agent
	Command string   `json:"command"`
	Args    []string `json:"args"`
	Snippet string   `json:"snippet"`
}

// runMCPConfig is `ferry mcp config AGENT`: the snippet that registers this
// very binary (its absolute path, symlinks resolved) in the agent.
// Errors: BadInput for a missing or unknown agent; Internal when the
// binary's own path cannot be found.
func runMCPConfig(inv *cli.Invocation, args []string) error {
	if len(args) != 1 {
		return errs.New(errs.BadInput, "ferry mcp config takes one agent, got %d argument(s)", len(args)).
			WithHint("use one of %s", agentNames())
	}
	agent, err := mcpconfig.Lookup(args[0])
	if err != nil {
		return errs.New(errs.BadInput, "unknown agent %q", args[0]).WithHint("use one of %s", agentNames())
	}
	bin, err := selfPath()
	if err != nil {
		return err
	}
	snippet, err := mcpconfig.Snippet(agent.Name, bin)
	if err != nil {
		return errs.Wrap(err, errs.Internal, "write the %s snippet", agent.Name)
	}
	if inv.JSON() {
		return inv.PrintJSON(mcpConfigInfo{Agent: agent, Command: bin, Args: mcpconfig.Args, Snippet: snippet})
	}
	_, err = fmt.Fprint(inv.Stdout(), snippet)
	return err
}

// selfPath is the absolute path of the running binary with symlinks
// resolved, so the agent's entry survives a relinked shim. Errors: Internal.
func selfPath() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "find the ferry binary")
	}
	if resolved, err := filepath.EvalSymlinks(exe); err == nil {
		exe = resolved
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "find the ferry binary")
	}
	return abs, nil
}

func agentNames() string {
	var s string
	for i, a := range mcpconfig.Agents() {
		if i > 0 {
			s += ", "
		}
		s += a.Name
	}
	return s
}
