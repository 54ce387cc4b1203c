package mcpconfig

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

var paths = map[string]string{
	"a plain path":                    "/usr/local/bin/ferry",
	"a path with spaces":              "/Applications/Ferry App.app/Contents/MacOS/ferry",
	"a Windows path with backslashes": `C:\Program Files\Ferry\ferry.exe`,
	"a path with quotes and a tab":    "/tmp/we\"ird\tdir/ferry",
	"a path with non-ASCII letters":   "/home/zoë/bin/ferry",
}

func TestTheJSONSnippetsParseToTheBinaryAndMCP(t *testing.T) {
	for _, agent := range []string{"claude", "cursor", "gemini"} {
		for name, path := range paths {
			t.Run(agent+" with "+name, func(t *testing.T) {
				s, err := Snippet(agent, path)
				if err != nil {
					t.Fatal(err)
				}
				var doc struct {
					MCPServers map[string]struct {
						Command string   `json:"command"`
						Args    []string `json:"args"`
					} `json:"mcpServers"`
				}
				dec := json.NewDecoder(strings.NewReader(s))
				dec.DisallowUnknownFields()
				if err := dec.Decode(&doc); err != nil {
					t.Fatalf("snippet does not parse: %v\n%s", err, s)
				}
				got, ok := doc.MCPServers["ferry"]
				if !ok || len(doc.MCPServers) != 1 {
					t.Fatalf("servers = %v, want only ferry", doc.MCPServers)
				}
				if got.Command != path || len(got.Args) != 1 || got.Args[0] != "mcp" {
					t.Errorf("ferry = %+v, want command %q args [mcp]", got, path)
				}
			})
		}
	}
}

func TestTheCodexSnippetIsWellFormedTOMLThatReadsBackThePath(t *testing.T) {
	for name, path := range paths {
		t.Run(name, func(t *testing.T) {
			s, err := Snippet("codex", path)
			if err != nil {
				t.Fatal(err)
			}
			table, kv, err := parseTOML(s)
			if err != nil {
				t.Fatalf("snippet is not well-formed: %v\n%s", err, s)
			}
			if table != "mcp_servers.ferry" {
				t.Errorf("table = %q, want mcp_servers.ferry", table)
			}
			if kv["command"] != strconv.Quote(path) {
				t.Errorf("command reads back as %s, want %q", kv["command"], path)
			}
			if kv["args"] != `["mcp"]` {
				t.Errorf("args = %s, want [\"mcp\"]", kv["args"])
			}
		})
	}
}

func TestAControlCharacterInThePathIsEscapedInTOML(t *testing.T) {
	s, err := Snippet("codex", "/tmp/a\x01b/ferry")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s, `\u0001`) || strings.ContainsRune(s, 1) {
		t.Errorf("control character not escaped:\n%q", s)
	}
}

func TestAnUnknownAgentIsRefusedNamingTheKnownOnes(t *testing.T) {
	_, err := Snippet("vim", "/bin/ferry")
	if !errors.Is(err, ErrUnknownAgent) {
		t.Fatalf("err = %v, want ErrUnknownAgent", err)
	}
	for _, a := range []string{"claude", "codex", "cursor", "gemini"} {
		if !strings.Contains(err.Error(), a) {
			t.Errorf("error %q does not name %s", err, a)
		}
	}
}

func TestAgentsAreListedSortedWithTheirFormat(t *testing.T) {
	var got []string
	for _, a := range Agents() {
		got = append(got, a.Name+":"+string(a.Format))
	}
	want := "claude:json codex:toml cursor:json gemini:json"
	if strings.Join(got, " ") != want {
		t.Errorf("agents = %v, want %s", got, want)
	}
}

// parseTOML reads the only shape the Codex snippet has — one [table] header,
// then key = "basic string" or key = ["basic string", ...] lines — strictly
// by the TOML rules for those, and gives each value back with its strings
// as Go-quoted text.
func parseTOML(s string) (table string, kv map[string]string, err error) {
	if !strings.HasSuffix(s, "\n") {
		return "", nil, errors.New("no final newline")
	}
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	head := lines[0]
	if !strings.HasPrefix(head, "[") || !strings.HasSuffix(head, "]") {
		return "", nil, fmt.Errorf("first line %q is not a table header", head)
	}
	table = head[1 : len(head)-1]
	for _, part := range strings.Split(table, ".") {
		if part == "" || strings.Trim(part, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") != "" {
			return "", nil, fmt.Errorf("bare key %q in header", part)
		}
	}
	kv = map[string]string{}
	for _, line := range lines[1:] {
		key, val, ok := strings.Cut(line, " = ")
		if !ok {
			return "", nil, fmt.Errorf("line %q is not key = value", line)
		}
		if _, dup := kv[key]; dup {
			return "", nil, fmt.Errorf("key %q twice", key)
		}
		if strings.HasPrefix(val, "[") {
			if !strings.HasSuffix(val, "]") {
				return "", nil, fmt.Errorf("array %q not closed", val)
			}
			rest := val[1 : len(val)-1]
			var items []string
			for rest != "" {
				str, tail, err := basicString(rest)
				if err != nil {
					return "", nil, err
				}
				items = append(items, strconv.Quote(str))
				rest = strings.TrimPrefix(tail, ", ")
				if rest == tail && tail != "" {
					return "", nil, fmt.Errorf("junk %q in array", tail)
				}
			}
			kv[key] = "[" + strings.Join(items, ", ") + "]"
			continue
		}
		str, tail, err := basicString(val)
		if err != nil {
			return "", nil, err
		}
		if tail != "" {
			return "", nil, fmt.Errorf("junk %q after the string", tail)
		}
		kv[key] = strconv.Quote(str)
	}
	return table, kv, nil
}

// basicString decodes the TOML basic string at the start of s and returns
// what follows it.
func basicString(s string) (string, string, error) {
	if !strings.HasPrefix(s, `"`) {
		return "", "", fmt.Errorf("%q does not open a basic string", s)
	}
	var b strings.Builder
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			return b.String(), s[i+1:], nil
		case c < 0x20 && c != '\t', c == 0x7f:
			return "", "", fmt.Errorf("raw control character %#x in a basic string", c)
		case c != '\\':
			b.WriteByte(c)
			continue
		}
		i++
		if i >= len(s) {
			return "", "", errors.New("escape at the end")
		}
		switch s[i] {
		case 'b':
			b.WriteByte('\b')
		case 't':
			b.WriteByte('\t')
		case 'n':
			b.WriteByte('\n')
		case 'f':
			b.WriteByte('\f')
		case 'r':
			b.WriteByte('\r')
		case '"':
			b.WriteByte('"')
		case '\\':
			b.WriteByte('\\')
		case 'u':
			if i+4 >= len(s) {
				return "", "", errors.New("short \\u escape")
			}
			n, err := strconv.ParseUint(s[i+1:i+5], 16, 32)
			if err != nil {
				return "", "", fmt.Errorf("bad \\u escape: %w", err)
			}
			b.WriteRune(rune(n))
			i += 4
		default:
			return "", "", fmt.Errorf("escape \\%c is not TOML", s[i])
		}
	}
	return "", "", errors.New("basic string not closed")
}
