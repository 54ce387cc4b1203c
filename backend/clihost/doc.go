// Package clihost is what the `ferry` binary adds to the CLI beyond the
// service layer: the in-process service.Service that commands use when no
// owner runs for the data directory (core over the store and a browser),
// and the commands that need the machinery itself — `ferry serve` (owning
// the data directory and serving the local API), `ferry mcp` (the MCP
// server on stdio, through the running owner or as one), `ferry sim` (the sites'
// simulator), `ferry verify` (the zip verifier) and `ferry doctor` (the
// machine checks). It registers all of them with package cli from init;
// backend/cmd/ferry links it in. Package cli itself stays a face of
// service.Service.
package clihost
