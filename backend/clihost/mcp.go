package clihost

import (
	"context"

	"github.com/ferrydesk/ferry/backend/cli"
	"github.com/ferrydesk/ferry/backend/errs"
)

func init() {
	cli.Register(cli.Command{
		Name:  "mcp",
		Args:  "config claude|codex|cursor|gemini",
		Short: "register Ferry as an MCP server in a coding agent",
		Long: `ferry mcp config AGENT prints the snippet that registers Ferry's MCP server in
that agent, with the absolute path of this ferry binary:

  claude   JSON for Claude Code's .mcp.json (project root) or ~/.claude.json
  codex    TOML for Codex's ~/.codex/config.toml
  cursor   JSON for Cursor's ~/.cursor/mcp.json (or .cursor/mcp.json in a project)
  gemini   JSON for Gemini CLI's ~/.gemini/settings.json (mcpServers)

Merge it into the file: an existing "mcpServers" object (or [mcp_servers]
table) keeps its other servers. With --json it prints the agent, the file, the
command, its arguments and the snippet.`,
		Run: runMCP,
	})
}

func runMCP(ctx context.Context, inv *cli.Invocation) error {
	args := inv.Args()
	if len(args) > 0 && args[0] == "config" {
		return runMCPConfig(inv, args[1:])
	}
	return errs.New(errs.BadInput, "ferry mcp needs config AGENT").WithHint("run `ferry help mcp`")
}
