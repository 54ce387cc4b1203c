package mcpconfig

import (
	"errors"
	"fmt"
	"sort"
)

// ServerName is the key Ferry is registered under in every agent's file.
const ServerName = "ferry"

// Format is the syntax of an agent's configuration file.
type Format string

// The formats the agents use.
const (
	JSON Format = "json"
	TOML Format = "toml"
)

// Agent is a coding agent Ferry can be registered in.
type Agent struct {
	Name   string `json:"name"`   // the argument of `ferry mcp config`, e.g. "codex"
	Title  string `json:"title"`  // the product's name, e.g. "Codex"
	File   string `json:"file"`   // where the snippet goes, as the agent documents it
	Format Format `json:"format"` // the syntax of that file
}

// ErrUnknownAgent is returned (wrapped) by Snippet for a name Agents does
// not list.
var ErrUnknownAgent = errors.New("unknown agent")

var agents = map[string]Agent{}

func register(a Agent) {
	if _, dup := agents[a.Name]; dup {
		panic("mcpconfig: duplicate agent " + a.Name)
	}
	agents[a.Name] = a
}

func init() {
	register(Agent{Name: "claude", Title: "Claude Code", File: ".mcp.json (project root) or ~/.claude.json", Format: JSON})
	register(Agent{Name: "codex", Title: "Codex", File: "~/.codex/config.toml", Format: TOML})
	register(Agent{Name: "cursor", Title: "Cursor", File: "~/.cursor/mcp.json (or .cursor/mcp.json in a project)", Format: JSON})
	register(Agent{Name: "gemini", Title: "Gemini CLI", File: "~/.gemini/settings.json (or .gemini/settings.json in a project)", Format: JSON})
}

// Agents lists the agents Snippet knows, sorted by name.
func Agents() []Agent {
	out := make([]Agent, 0, len(agents))
	for _, a := range agents {
		out = append(out, a)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// Lookup is the agent named name. Errors: ErrUnknownAgent (wrapped, naming
// the known ones) for a name Agents does not list.
func Lookup(name string) (Agent, error) {
	a, ok := agents[name]
	if !ok {
		names := make([]string, 0, len(agents))
		for _, a := range Agents() {
			names = append(names, a.Name)
		}
		return Agent{}, fmt.Errorf("look up agent %q (known: %v): %w", name, names, ErrUnknownAgent)
	}
	return a, nil
}
