// Package mcpconfig writes the snippet that registers Ferry's MCP server
// (`ferry mcp` over stdio) in a coding agent's configuration: JSON under
// "mcpServers" for Claude Code (.mcp.json), Cursor (~/.cursor/mcp.json)
// and Gemini CLI (settings.json), a [mcp_servers.ferry] table for Codex
// (~/.codex/config.toml). It is pure text generation and a leaf: the CLI
// and the desktop app both print it, and it imports nothing of Ferry.
package mcpconfig
