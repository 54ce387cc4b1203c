package mcpconfig

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Args are the arguments the agent passes to the binary: the MCP server
// over stdio.
var Args = []string{"mcp"}

// Snippet is the text that registers binary (an absolute path to the
// `ferry` executable) as the MCP server "ferry" in the agent named agent,
// ending with a newline. Errors: ErrUnknownAgent (wrapped) for a name
// Agents does not list.
func Snippet(agent, binary string) (string, error) {
	a, err := Lookup(agent)
	if err != nil {
		return "", err
	}
	switch a.Format {
	case TOML:
		return tomlSnippet(binary), nil
	default:
		return jsonSnippet(binary)
	}
}

// server is one entry of "mcpServers": a local process spoken to over stdio.
type server struct {
	Command string   `json:"command"`
	Args    []string `json:"args"`
}

func jsonSnippet(binary string) (string, error) {
	doc := map[string]map[string]server{"mcpServers": {ServerName: {Command: binary, Args: Args}}}
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(doc); err != nil {
		return "", fmt.Errorf("encode mcp config: %w", err)
	}
	return b.String(), nil
}

func tomlSnippet(binary string) string {
	quoted := make([]string, len(Args))
	for i, a := range Args {
		quoted[i] = tomlString(a)
	}
	return fmt.Sprintf("[mcp_servers.%s]\ncommand = %s\nargs = [%s]\n", ServerName, tomlString(binary), strings.Join(quoted, ", "))
}

// tomlString is s as a TOML basic string: a backslash, a quote and every
// control character escaped (a Windows path's backslashes included), so any
// path reads back as itself.
func tomlString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for _, r := range s {
		switch r {
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		case '\b':
			b.WriteString(`\b`)
		case '\t':
			b.WriteString(`\t`)
		case '\n':
			b.WriteString(`\n`)
		case '\f':
			b.WriteString(`\f`)
		case '\r':
			b.WriteString(`\r`)
		default:
			if r < 0x20 || r == 0x7f {
				fmt.Fprintf(&b, `\u%04X`, r)
			} else {
				b.WriteRune(r)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}
