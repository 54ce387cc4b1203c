// Package mcp is Ferry's Model Context Protocol face: an MCP server, built
// with the official Go SDK, whose tools (ask, code, job, cancel, sessions,
// session, retrieve, sites, templates) and resources (ferry://session/{id},
// ferry://artifact/{sha256}) are thin calls on a service.Service. The
// server is an agent: it acts as the agent client named after the MCP
// client's clientInfo.name (service.EnsureAgent), so the caller-scope rules
// and the user's approval rule apply to it as to any paired agent, and its
// jobs outlive the process. A tool call never blocks longer than its
// wait_s; errors are tool results carrying the errs envelope.
package mcp
