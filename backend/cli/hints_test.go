package cli

import (
	"encoding/json"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/cli/internal/browserflag"
	"github.com/ferrydesk/ferry/backend/errs"
)

// hintTexts are the non-test Go sources of Ferry (the desktop's frontend
// names no CLI command) and, as one more source, every hint of the errs
// catalog, which any command may show: name → text.
func hintTexts(t *testing.T) map[string]string {
	t.Helper()
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "frontend", "testdata", ".git", "build":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		out[rel] = string(b)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range errs.Catalog() {
		out["the errs catalog's hint of "+string(s.Code)] = s.Hint
	}
	return out
}

// flagSetOf is the flag set command name parses, as Run builds it.
func flagSetOf(name string) *flag.FlagSet {
	var g globals
	fs := flag.NewFlagSet("ferry "+name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	g.register(fs)
	if c := commands[name]; c != nil && c.flags != nil {
		c.flags(fs)
	}
	return fs
}

// TestEveryCommandAHintNamesExists reads every message and hint in Ferry's
// Go sources and the errs catalog that names a `ferry <command>` and checks
// that the command exists (clihost's are linked into this test binary, as
// into ferry).
func TestEveryCommandAHintNamesExists(t *testing.T) {
	t.Parallel()
	named := regexp.MustCompile("`ferry ([a-z][a-z-]*)")
	seen := 0
	for where, text := range hintTexts(t) {
		for _, m := range named.FindAllStringSubmatch(text, -1) {
			seen++
			if _, ok := commands[m[1]]; !ok {
				t.Errorf("%s names `ferry %s`, which is no command", where, m[1])
			}
		}
	}
	if seen < 50 {
		t.Fatalf("only %d commands named in the sources: the check would prove nothing", seen)
	}
}

// TestEveryFlagAHintNamesIsAcceptedByItsCommand reads every message and
// hint in Ferry's Go sources and the whole errs catalog: a flag inside a
// `ferry <command> …` a text names is one that command accepts; a flag a
// hint (WithHint, the catalog) names on its own is one a command accepts,
// with a value only when it takes one, and not a placeholder for a flag
// that takes one of a few words (--browser PATH). A hint that sends the user to a
// flag their command refuses is a dead end.
func TestEveryFlagAHintNamesIsAcceptedByItsCommand(t *testing.T) {
	t.Parallel()
	span := regexp.MustCompile("`ferry ([a-z][a-z-]*)([^`]*)`")
	flagRe := regexp.MustCompile(`(?:^|[\s(\x60"'])--([a-z][a-z0-9-]*)(?:[ =]([A-Z][A-Z_]+)\b)?`)
	withHint := regexp.MustCompile(`WithHint\("((?:[^"\\]|\\.)*)"`)
	all := map[string]*flag.Flag{}
	for name := range commands {
		flagSetOf(name).VisitAll(func(f *flag.Flag) { all[f.Name] = f })
	}
	inCommand, alone := 0, 0
	for where, text := range hintTexts(t) {
		for _, m := range span.FindAllStringSubmatch(text, -1) {
			if strings.Contains(m[2], "%") {
				continue
			}
			fs := flagSetOf(m[1])
			for _, f := range flagRe.FindAllStringSubmatch(m[2], -1) {
				inCommand++
				if fs.Lookup(f[1]) == nil {
					t.Errorf("%s names `ferry %s%s`: ferry %s does not take --%s", where, m[1], m[2], m[1], f[1])
				}
			}
		}
		hints := []string{text}
		if !strings.HasPrefix(where, "the errs catalog") {
			hints = nil
			for _, m := range withHint.FindAllStringSubmatch(text, -1) {
				hints = append(hints, m[1])
			}
		}
		for _, h := range hints {
			for _, f := range flagRe.FindAllStringSubmatch(span.ReplaceAllString(h, ""), -1) {
				alone++
				fl, ok := all[f[1]]
				switch {
				case otherPrograms[f[1]] != "":
				case !ok:
					t.Errorf("%s: the hint %q names --%s, which no command takes", where, h, f[1])
				case f[2] != "" && isBoolFlag(fl):
					t.Errorf("%s: the hint %q gives --%s the value %s, but it takes none", where, h, f[1], f[2])
				case f[2] != "" && flagValues[f[1]] != nil:
					t.Errorf("%s: the hint %q gives --%s a %s, but it takes one of %s", where, h, f[1], f[2], strings.Join(flagValues[f[1]], ", "))
				}
			}
		}
	}
	if inCommand < 15 || alone < 40 {
		t.Fatalf("only %d flags named in commands and %d in hints on their own: the check would prove nothing", inCommand, alone)
	}
}

// otherPrograms are the flags hints name of programs other than ferry.
var otherPrograms = map[string]string{
	"remote-debugging-port": "Chromium's: a browser started with it can be attached",
	"demo":                  "ferry-desktop's",
}

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// TestTheHintsOfABrowserNotRunningNameWhatTheirCommandTakes runs each
// command that can use Ferry's own running browser while none runs: the
// hint of its browser_disconnected names only flags the command takes,
// and a flag's value (--browser launch) only where the command accepts
// it: run again with it (and a Chromium that is not there, so nothing
// starts), it is not refused as bad input.
func TestTheHintsOfABrowserNotRunningNameWhatTheirCommandTakes(t *testing.T) {
	t.Parallel()
	flagRe := regexp.MustCompile(`(?:^|[\s(])--([a-z][a-z0-9-]*)(?: ([a-z]+)\b)?`)
	cases := [][]string{
		{"doctor", "--sites", "--browser", "attach"},
		{"tabs"},
		{"tabs", "--browser", "attach"},
		{"open", "deepseek"},
		{"ask", "--site", "chatgpt", "--browser", "attach", "hello"},
		{"retrieve", "--conv", "0b5e1c2d-1111-2222-3333-444455556666", "--browser", "attach"},
	}
	missing := filepath.Join(t.TempDir(), "no-chromium")
	for _, args := range cases {
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			dataDir := t.TempDir()
			r := ferry(t, nil, append(append([]string{}, args...), "--data-dir", dataDir, "--json")...)
			var out struct {
				Error *errs.Envelope `json:"error"`
			}
			if err := json.Unmarshal([]byte(r.stdout), &out); err != nil || out.Error == nil || out.Error.Code != errs.BrowserDisconnected {
				t.Fatalf("exit %d, want browser_disconnected (%v)\n%s\n%s", r.code, err, r.stdout, r.stderr)
			}
			fs := flagSetOf(args[0])
			for _, f := range flagRe.FindAllStringSubmatch(out.Error.RetryHint, -1) {
				if otherPrograms[f[1]] != "" {
					continue
				}
				if fs.Lookup(f[1]) == nil {
					t.Errorf("the hint %q names --%s, which ferry %s does not take", out.Error.RetryHint, f[1], args[0])
					continue
				}
				if !slices.Contains(flagValues[f[1]], f[2]) {
					continue
				}
				again := append(withoutFlag(args, f[1]), "--"+f[1], f[2], "--chromium", missing, "--data-dir", dataDir, "--json")
				r := ferry(t, nil, again...)
				if r.code == exitOf(errs.BadInput) {
					t.Errorf("the hint %q names --%s %s, which ferry %s refuses:\n%s%s", out.Error.RetryHint, f[1], f[2], args[0], r.stdout, r.stderr)
				}
			}
		})
	}
}

// flagValues are the values of the flags that take one of a few words.
var flagValues = map[string][]string{"browser": {browserflag.Launch, browserflag.Attach}}

// withoutFlag is args without the flag name and its value.
func withoutFlag(args []string, name string) []string {
	var out []string
	for i := 0; i < len(args); i++ {
		if args[i] == "--"+name {
			i++
			continue
		}
		out = append(out, args[i])
	}
	return out
}
