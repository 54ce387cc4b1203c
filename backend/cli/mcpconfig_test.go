package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMCPConfigNamesThisBinaryForEachAgent(t *testing.T) {
	t.Parallel()
	real, err := filepath.EvalSymlinks(binary)
	if err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(t.TempDir(), "bin dir", "ferry")
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(binary, link); err != nil {
		t.Fatal(err)
	}
	for _, agent := range []string{"claude", "cursor", "gemini"} {
		t.Run(agent+" gets JSON naming the binary with symlinks resolved", func(t *testing.T) {
			r := ferry(t, nil, "mcp", "config", agent)
			if r.code != 0 {
				t.Fatalf("mcp config %s: %+v", agent, r)
			}
			var doc struct {
				MCPServers map[string]struct {
					Command string
					Args    []string
				} `json:"mcpServers"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &doc); err != nil {
				t.Fatalf("not JSON: %v\n%s", err, r.stdout)
			}
			f := doc.MCPServers["ferry"]
			if f.Command != real || strings.Join(f.Args, " ") != "mcp" {
				t.Errorf("ferry = %+v, want %s mcp", f, real)
			}
		})
	}
	t.Run("codex gets a TOML table, run through a symlink it names the real binary", func(t *testing.T) {
		r := ferry(t, nil, "mcp", "config", "codex")
		want := "[mcp_servers.ferry]\ncommand = \"" + real + "\"\nargs = [\"mcp\"]\n"
		if r.code != 0 || r.stdout != want {
			t.Fatalf("mcp config codex: %+v\nwant %q", r, want)
		}
		before := binary
		binary = link
		defer func() { binary = before }()
		if viaLink := ferry(t, nil, "mcp", "config", "codex"); viaLink.stdout != want {
			t.Errorf("through %s: %q, want %q", link, viaLink.stdout, want)
		}
	})
	t.Run("--json gives the agent's file, the command and the snippet", func(t *testing.T) {
		r := ferry(t, nil, "mcp", "config", "cursor", "--json")
		var v struct{ Name, File, Format, Command, Snippet string }
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v.Name != "cursor" || v.Format != "json" ||
			!strings.Contains(v.File, ".cursor/mcp.json") || v.Command != real || !strings.Contains(v.Snippet, `"mcpServers"`) {
			t.Fatalf("--json: %v %+v", err, v)
		}
	})
	t.Run("an unknown agent exits 2 naming the known ones", func(t *testing.T) {
		r := ferry(t, nil, "mcp", "config", "vim")
		if r.code != 2 || r.stdout != "" || !strings.Contains(r.stderr, "bad_input") || !strings.Contains(r.stderr, "claude, codex, cursor, gemini") {
			t.Fatalf("mcp config vim: %+v", r)
		}
	})
}
