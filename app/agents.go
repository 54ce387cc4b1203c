package app

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/mcpconfig"
)

// MCPConfig is the snippet that registers the `ferry` CLI as an MCP server
// in one coding agent, for Settings → Agents to copy.
type MCPConfig struct {
	mcpconfig.Agent
	Snippet string `json:"snippet"`
	// Binary is the `ferry` CLI the snippet names; Found says it exists
	// there (when not, the snippet names where the app expected it).
	Binary string `json:"binary"`
	Found  bool   `json:"found"`
}

// MCPConfigs gives each agent's snippet (claude, codex, cursor, gemini,
// sorted) naming the `ferry` CLI installed beside this app, else the one
// in PATH. It needs no running gateway. Errors: internal when this app's
// own path cannot be read.
func (g *Gateway) MCPConfigs() ([]MCPConfig, error) {
	self, err := os.Executable()
	if err != nil {
		return nil, errs.Wrap(err, errs.Internal, "find the ferry app")
	}
	bin, found := cliBinary(self, exec.LookPath)
	var out []MCPConfig
	for _, a := range mcpconfig.Agents() {
		s, err := mcpconfig.Snippet(a.Name, bin)
		if err != nil {
			return nil, errs.Wrap(err, errs.Internal, "write the %s snippet", a.Name)
		}
		out = append(out, MCPConfig{Agent: a, Snippet: s, Binary: bin, Found: found})
	}
	return out, nil
}

// cliBinary is the `ferry` CLI for the app at self (symlinks resolved):
// the one in the same folder (both are built into build/bin and installed
// together), else the one lookPath finds; when neither exists, the path
// beside the app, not found.
func cliBinary(self string, lookPath func(string) (string, error)) (string, bool) {
	if resolved, err := filepath.EvalSymlinks(self); err == nil {
		self = resolved
	}
	name := "ferry"
	if runtime.GOOS == "windows" {
		name += ".exe"
	}
	beside := filepath.Join(filepath.Dir(self), name)
	if fi, err := os.Stat(beside); err == nil && !fi.IsDir() {
		return beside, true
	}
	if p, err := lookPath(name); err == nil {
		if abs, err := filepath.Abs(p); err == nil {
			if resolved, err := filepath.EvalSymlinks(abs); err == nil {
				abs = resolved
			}
			return abs, true
		}
	}
	return beside, false
}
