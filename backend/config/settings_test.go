package config_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

func TestDefaultsAreValid(t *testing.T) {
	d := config.Defaults()
	if err := d.Validate(); err != nil {
		t.Fatal(err)
	}
	if d.Theme != "system" || !d.Notifications || d.QuickPrompt.Hotkey != "Ctrl+Shift+Space" || d.AnswerTimeoutDuration() != 20*time.Minute ||
		d.Artifacts.MaxZipBytes != 512<<20 || d.Artifacts.MaxTotalUncompressedBytes != 2<<30 || d.Artifacts.MaxEntries != 10000 || d.Artifacts.MaxRatio != 100 {
		t.Fatalf("defaults %+v", d)
	}
}

func TestLoadOfAMissingFileIsDefaults(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	s, err := config.Load(path)
	if err != nil || !reflect.DeepEqual(s, config.Defaults()) {
		t.Fatalf("got %+v, %v", s, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatal("Load created the file")
	}
}

func TestLoadKeepsDefaultsForMissingFields(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	os.WriteFile(path, []byte(`{"theme": "dark", "browser": {"headless": true}}`), 0o600)
	s, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Theme != "dark" || !s.Browser.Headless || !s.Notifications || s.QuickPrompt.DefaultSite != "chatgpt" || s.Version != 1 {
		t.Fatalf("got %+v", s)
	}
}

// lines joins lines with newlines so that tests can say which line a
// problem is on.
func lines(ls ...string) string { return strings.Join(ls, "\n") + "\n" }

func TestLoadNamesFileLineAndProblem(t *testing.T) {
	cases := []struct {
		name     string
		content  string
		line     string
		problem  string
		field    string
		contains []string
	}{
		{
			name: "a syntax error on line 7 is reported on line 7",
			content: lines(`{`, `  "version": 1,`, `  "theme": "dark",`, `  "notifications": true,`, `  "browser": {`, `    "headless": false,`,
				`    "binary": /usr/bin/chromium`, `  }`, `}`),
			line: "7", problem: "syntax error", contains: []string{"line 7, column 15", "invalid character '/'"},
		},
		{
			name:    "a missing comma points at the next line and mentions the previous one",
			content: lines(`{`, `  "theme": "dark"`, `  "notifications": true`, `}`),
			line:    "3", problem: "syntax error", contains: []string{"line 3", "check the end of line 2"},
		},
		{
			name:    "a truncated file says it ends in the middle of a value",
			content: `{"theme": "dark", "browser": {"headless": true`,
			line:    "1", problem: "syntax error", contains: []string{"ends in the middle"},
		},
		{
			name:    "a wrong closing bracket at the very end is a syntax error, not a truncation",
			content: `{"theme": "dark"]`,
			line:    "1", problem: "syntax error", contains: []string{"column 17", "invalid character ']'"},
		},
		{
			name:    "content after the settings object is a syntax error where it starts",
			content: lines(`{"theme": "dark"}`, `x`),
			line:    "2", problem: "syntax error", contains: []string{"line 2, column 1", "more content"},
		},
		{
			name:    "an empty file is an error, not silently defaults",
			content: "\n\n",
			line:    "1", problem: "syntax error", contains: []string{"empty"},
		},
		{
			name:    "an unknown top-level field is named with its line and a suggestion",
			content: lines(`{`, `  "theme": "dark",`, `  "notifcations": false`, `}`),
			line:    "3", problem: "unknown field", field: "notifcations", contains: []string{`unknown setting "notifcations"`, `did you mean "notifications"`},
		},
		{
			name:    "an unknown nested field is named with its path",
			content: lines(`{`, `  "browser": {`, `    "headles": true`, `  }`, `}`),
			line:    "3", problem: "unknown field", field: "browser.headles", contains: []string{"in browser", `did you mean "headless"`},
		},
		{
			name:    "a field in the wrong case is unknown, not silently accepted",
			content: lines(`{`, `  "Theme": "dark"`, `}`),
			line:    "2", problem: "unknown field", field: "Theme", contains: []string{`did you mean "theme"`},
		},
		{
			name:    "a repeated field is an error naming both lines",
			content: lines(`{`, `  "theme": "dark",`, `  "theme": "light"`, `}`),
			line:    "3", problem: "duplicate field", field: "theme", contains: []string{"appears twice", "first on line 2"},
		},
		{
			name:    "a wrong type names the field and the type wanted",
			content: lines(`{`, `  "theme": "dark",`, `  "browser": {`, `    "headless": "yes"`, `  }`, `}`),
			line:    "4", problem: "wrong type", field: "browser.headless", contains: []string{"browser.headless must be true or false, not string"},
		},
		{
			name:    "a fractional count is a wrong type",
			content: lines(`{`, `  "artifacts": {"maxEntries": 1.5}`, `}`),
			line:    "2", problem: "wrong type", field: "artifacts.maxEntries", contains: []string{"whole number"},
		},
		{
			name:    "an invalid theme names the allowed values",
			content: lines(`{`, `  "version": 1,`, `  "theme": "blue"`, `}`),
			line:    "3", problem: "invalid value", field: "theme", contains: []string{"system, light, dark", `"blue"`},
		},
		{
			name:    "an invalid duration shows examples",
			content: lines(`{`, `  "run": {`, `    "answerTimeout": "20 minutes"`, `  }`, `}`),
			line:    "3", problem: "invalid value", field: "run.answerTimeout", contains: []string{`"20m"`},
		},
		{
			name:    "a hotkey without a key is invalid",
			content: lines(`{"quickPrompt": {`, `  "hotkey": "Ctrl+Shift"}}`),
			line:    "2", problem: "invalid value", field: "quickPrompt.hotkey", contains: []string{"has no key"},
		},
		{
			name:    "a negative limit is invalid",
			content: lines(`{`, `  "artifacts": {`, `    "maxZipBytes": -1`, `  }`, `}`),
			line:    "3", problem: "invalid value", field: "artifacts.maxZipBytes", contains: []string{"positive"},
		},
		{
			name:    "a bad extra browser argument is named by its index and line",
			content: lines(`{"browser": {"extraArgs": [`, `  "--lang=en",`, `  "--remote-allow-origins=*"`, `]}}`),
			line:    "3", problem: "invalid value", field: "browser.extraArgs[1]", contains: []string{"manages itself"},
		},
		{
			name:    "a remote attach URL is refused",
			content: lines(`{`, `  "browser": {"attachURL": "ws://10.0.0.5:9222/devtools/browser/x"}`, `}`),
			line:    "2", problem: "invalid value", field: "browser.attachURL", contains: []string{"this machine"},
		},
		{
			name:    "a settings version from a newer Ferry is refused",
			content: lines(`{`, `  "version": 9`, `}`),
			line:    "2", problem: "invalid value", field: "version", contains: []string{"upgrade Ferry"},
		},
		{
			name:    "a top-level list is not settings",
			content: lines(`[`, `  "theme"`, `]`),
			line:    "1", problem: "wrong type", contains: []string{"one JSON object"},
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "settings.json")
			if err := os.WriteFile(path, []byte(c.content), 0o600); err != nil {
				t.Fatal(err)
			}
			before := fileState(t, path)
			_, err := config.Load(path)
			e := errs.From(err)
			if err == nil || e.Code != errs.ConfigInvalid {
				t.Fatalf("got %v; want config_invalid", err)
			}
			if !strings.Contains(e.Message, path) || e.Evidence["file"] != path {
				t.Errorf("message does not name the file: %s", e.Message)
			}
			if e.Evidence["line"] != c.line || !strings.Contains(e.Message, "line "+c.line+",") {
				t.Errorf("line evidence %q, message %q; want line %s", e.Evidence["line"], e.Message, c.line)
			}
			if e.Evidence["problem"] != c.problem {
				t.Errorf("problem %q, want %q", e.Evidence["problem"], c.problem)
			}
			if e.Evidence["field"] != c.field {
				t.Errorf("field %q, want %q", e.Evidence["field"], c.field)
			}
			for _, want := range c.contains {
				if !strings.Contains(e.Message, want) {
					t.Errorf("message %q lacks %q", e.Message, want)
				}
			}
			if after := fileState(t, path); after != before {
				t.Errorf("Load changed the file: %+v -> %+v", before, after)
			}
		})
	}
}

type state struct {
	Sum   [32]byte
	Mode  os.FileMode
	MTime time.Time
	Dir   string
}

// fileState captures a file and its directory listing, to prove a call left
// them alone.
func fileState(t *testing.T, path string) state {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(path)
	entries, _ := os.ReadDir(filepath.Dir(path))
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	return state{Sum: sha256.Sum256(b), Mode: fi.Mode(), MTime: fi.ModTime(), Dir: strings.Join(names, ",")}
}

func TestValidate(t *testing.T) {
	cases := []struct {
		name   string
		change func(*config.Settings)
		field  string // "" when valid
	}{
		{"light theme is valid", func(s *config.Settings) { s.Theme = "light" }, ""},
		{"an unknown theme is invalid", func(s *config.Settings) { s.Theme = "Dark" }, "theme"},
		{"a timeout of 90s is valid", func(s *config.Settings) { s.Run.AnswerTimeout = "90s" }, ""},
		{"a timeout under 10s is invalid", func(s *config.Settings) { s.Run.AnswerTimeout = "5s" }, "run.answerTimeout"},
		{"a timeout over a day is invalid", func(s *config.Settings) { s.Run.AnswerTimeout = "25h" }, "run.answerTimeout"},
		{"a command name as binary is valid", func(s *config.Settings) { s.Browser.Binary = "chromium" }, ""},
		{"a relative path as binary is invalid", func(s *config.Settings) { s.Browser.Binary = "bin/chromium" }, "browser.binary"},
		{"an extra argument that is not a flag is invalid", func(s *config.Settings) { s.Browser.ExtraArgs = []string{"lang"} }, "browser.extraArgs[0]"},
		{"a DevTools flag spelt with one dash is invalid", func(s *config.Settings) { s.Browser.ExtraArgs = []string{"-Remote-Debugging-Port=9222"} }, "browser.extraArgs[0]"},
		{"a flag that turns off the sandbox is invalid", func(s *config.Settings) { s.Browser.ExtraArgs = []string{"--no-sandbox"} }, "browser.extraArgs[0]"},
		{"a flag whose value has spaces is valid", func(s *config.Settings) {
			s.Browser.ExtraArgs = []string{"--host-resolver-rules=MAP chatgpt.com 127.0.0.1:4443,MAP claude.ai 127.0.0.1:4443"}
		}, ""},
		{"a flag in shell quotes is invalid", func(s *config.Settings) { s.Browser.ExtraArgs = []string{"'--host-resolver-rules=MAP a 127.0.0.1:1'"} }, "browser.extraArgs[0]"},
		{"a flag value in shell quotes is invalid", func(s *config.Settings) {
			s.Browser.ExtraArgs = []string{"--lang=en", `--host-resolver-rules="MAP a 127.0.0.1:1"`}
		}, "browser.extraArgs[1]"},
		{"two flags on one line are invalid", func(s *config.Settings) { s.Browser.ExtraArgs = []string{"--lang=en --ignore-certificate-errors"} }, "browser.extraArgs[0]"},
		{"a loopback attach URL is valid", func(s *config.Settings) { s.Browser.AttachURL = "http://127.0.0.1:9222" }, ""},
		{"an attach file path is valid", func(s *config.Settings) {
			s.Browser.AttachURL = rooted("home", "u", ".config", "chromium", "DevToolsActivePort")
		}, ""},
		{"an attach URL of another scheme is invalid", func(s *config.Settings) { s.Browser.AttachURL = "ftp://127.0.0.1/x" }, "browser.attachURL"},
		{"a site id with capitals is invalid", func(s *config.Settings) { s.QuickPrompt.DefaultSite = "ChatGPT" }, "quickPrompt.defaultSite"},
		{"a relative output dir is invalid", func(s *config.Settings) { s.Artifacts.OutputDir = "out" }, "artifacts.outputDir"},
		{"zero entries is invalid", func(s *config.Settings) { s.Artifacts.MaxEntries = 0 }, "artifacts.maxEntries"},
		{"a ratio below 1 is invalid", func(s *config.Settings) { s.Artifacts.MaxRatio = 0.5 }, "artifacts.maxRatio"},
		{"a site that is not an object is invalid", func(s *config.Settings) { s.Sites = []json.RawMessage{json.RawMessage(`"x"`)} }, "sites[0]"},
		{"broadcast sites by id are valid", func(s *config.Settings) { s.BroadcastSites = []string{"chatgpt", "claude"} }, ""},
		{"a broadcast site that is no id is invalid", func(s *config.Settings) { s.BroadcastSites = []string{"chatgpt", "Claude AI"} }, "broadcastSites[1]"},
		{"version 0 is invalid", func(s *config.Settings) { s.Version = 0 }, "version"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := config.Defaults()
			c.change(&s)
			err := s.Validate()
			if c.field == "" {
				if err != nil {
					t.Fatalf("got %v", err)
				}
				return
			}
			e := errs.From(err)
			if err == nil || e.Code != errs.ConfigInvalid || e.Evidence["field"] != c.field || !strings.Contains(e.Message, c.field) {
				t.Fatalf("got %v; want config_invalid about %s", err, c.field)
			}
			// The problem alone, for a window that shows it beside the field.
			if p := e.Evidence["problem"]; p == "" || strings.Contains(p, c.field) || !strings.HasSuffix(e.Message, p) {
				t.Errorf("evidence problem %q: want the message's words after the field", p)
			}
		})
	}
}

func TestParseHotkey(t *testing.T) {
	cases := []struct {
		in, want string // want "" means an error
	}{
		{"Ctrl+Shift+Space", "Ctrl+Shift+Space"},
		{"shift+ctrl+space", "Ctrl+Shift+Space"},
		{"Cmd+Option+k", "Alt+Super+K"},
		{"Control + Enter", "Ctrl+Return"},
		{"F9", "F9"},
		{"Alt+F12", "Alt+F12"},
		{"Ctrl+Shift", ""},
		{"Ctrl+A+B", ""},
		{"Ctrl+Ctrl+A", ""},
		{"Shift+A", ""},
		{"A", ""},
		{"Ctrl+F0", ""},
		{"Ctrl+F21", ""},
		{"Ctrl++A", ""},
		{"A+Ctrl", ""},
		{"Hyper+A", ""},
		{"", ""},
	}
	for _, c := range cases {
		t.Run(c.in+" parses to "+c.want, func(t *testing.T) {
			h, err := config.ParseHotkey(c.in)
			if c.want == "" {
				if err == nil {
					t.Fatalf("accepted as %s", h)
				}
				return
			}
			if err != nil || h.String() != c.want {
				t.Fatalf("got %s, %v", h, err)
			}
		})
	}
}

// rooted is an absolute path on this platform from its parts: /usr/bin/…
// on unix, C:\usr\bin\… on Windows, where a path without a drive is not
// absolute.
func rooted(parts ...string) string {
	return filepath.Join(append([]string{filepath.VolumeName(os.TempDir()) + string(filepath.Separator)}, parts...)...)
}

func TestSaveThenLoadRoundTrips(t *testing.T) {
	path := filepath.Join(t.TempDir(), "conf", "settings.json")
	s := config.Defaults()
	s.Theme = "dark"
	s.Browser = config.BrowserSettings{Binary: rooted("usr", "bin", "chromium"), Headless: true, ExtraArgs: []string{"--lang=en"}, AttachURL: "ws://127.0.0.1:9222/devtools/browser/abc"}
	s.QuickPrompt = config.QuickPromptSettings{Hotkey: "Alt+F9", DefaultSite: "claude"}
	s.Notifications = false
	s.Run.AnswerTimeout = "1h30m"
	s.Artifacts = config.ArtifactSettings{OutputDir: rooted("tmp", "out"), MaxZipBytes: 1 << 20, MaxEntries: 50, MaxTotalUncompressedBytes: 8 << 20, MaxRatio: 20}
	s.Sites = []json.RawMessage{json.RawMessage(`{"id":"mysite","url":"https://chat.example.com/","selectors":{"composer":"#prompt"}}`)}
	if err := config.Save(path, s); err != nil {
		t.Fatal(err)
	}
	got, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Sites) != 1 {
		t.Fatalf("sites: %s", got.Sites)
	}
	var a, b any
	json.Unmarshal(s.Sites[0], &a)
	json.Unmarshal(got.Sites[0], &b)
	if !reflect.DeepEqual(a, b) {
		t.Fatalf("site override changed: %s -> %s", s.Sites[0], got.Sites[0])
	}
	got.Sites, s.Sites = nil, nil
	if !reflect.DeepEqual(got, s) {
		t.Fatalf("round trip\n got %+v\nwant %+v", got, s)
	}
	raw, _ := os.ReadFile(path)
	for _, key := range []string{`"quickPrompt"`, `"answerTimeout"`, `"maxTotalUncompressedBytes"`, `"attachURL"`, `"extraArgs"`} {
		if !bytes.Contains(raw, []byte(key)) {
			t.Errorf("file lacks camelCase key %s", key)
		}
	}
}

func TestSaveIsAtomicAndPrivate(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	os.WriteFile(path, []byte(`{"theme":"light"}`), 0o644)

	t.Run("it writes the file owner-only and leaves no temporary file", func(t *testing.T) {
		if err := config.Save(path, config.Defaults()); err != nil {
			t.Fatal(err)
		}
		assertOwnerOnly(t, path, 0o600)
		entries, _ := os.ReadDir(dir)
		if len(entries) != 1 {
			t.Fatalf("directory holds %d entries", len(entries))
		}
	})
	t.Run("it replaces the file by rename, so a reader holding the old file sees it whole", func(t *testing.T) {
		if platform.UnderWine() {
			// Wine (8.0) has no POSIX rename (FileRenameInfoEx), so a
			// file open for reading cannot be replaced there, as on
			// Windows before 10 1809; ReplaceFile's tests cover Wine.
			t.Skip("Wine has no POSIX rename: a file open for reading cannot be replaced")
		}
		old, err := openReader(path)
		if err != nil {
			t.Fatal(err)
		}
		defer old.Close()
		oldInfo, _ := old.Stat()
		s := config.Defaults()
		s.Theme = "dark"
		if err := config.Save(path, s); err != nil {
			t.Fatal(err)
		}
		newInfo, _ := os.Stat(path)
		if os.SameFile(oldInfo, newInfo) {
			t.Fatal("Save wrote into the existing file instead of renaming a new one over it")
		}
		b, _ := os.ReadFile(old.Name())
		if !bytes.Contains(b, []byte(`"dark"`)) {
			t.Fatal("new content missing")
		}
	})
	t.Run("invalid settings are refused and the file is left alone", func(t *testing.T) {
		before := fileState(t, path)
		s := config.Defaults()
		s.Theme = "neon"
		err := config.Save(path, s)
		if e := errs.From(err); e == nil || e.Code != errs.ConfigInvalid || e.Evidence["field"] != "theme" || e.Evidence["file"] != path {
			t.Fatalf("got %v", err)
		}
		if fileState(t, path) != before {
			t.Fatal("file changed")
		}
	})
	t.Run("a symlinked settings file keeps its link and gets a new target", func(t *testing.T) {
		real := filepath.Join(t.TempDir(), "real.json")
		os.WriteFile(real, []byte(`{}`), 0o600)
		link := filepath.Join(t.TempDir(), "settings.json")
		if err := os.Symlink(real, link); err != nil {
			t.Fatal(err)
		}
		s := config.Defaults()
		s.Theme = "dark"
		if err := config.Save(link, s); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
			t.Fatal("the link was replaced by a file")
		}
		if got, err := config.Load(link); err != nil || got.Theme != "dark" {
			t.Fatalf("got %v, %v", got.Theme, err)
		}
	})
}

func TestResetKeepsTheBadFileAndNeverClobbersABackup(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "settings.json")
	bad1 := []byte("{\n  \"theme\": blue\n}\n")
	bad2 := []byte(`{"theme": "purple"}`)
	bad3 := []byte(`not json`)

	os.WriteFile(path, bad1, 0o600)
	backup, err := config.Reset(path)
	if err != nil {
		t.Fatal(err)
	}
	if backup != path+".bak" {
		t.Fatalf("first backup at %s", backup)
	}
	if got, err := config.Load(path); err != nil || !reflect.DeepEqual(got, config.Defaults()) {
		t.Fatalf("after reset: %+v, %v", got, err)
	}

	os.WriteFile(path, bad2, 0o600)
	if backup, err = config.Reset(path); err != nil || backup != path+".bak.1" {
		t.Fatalf("second backup at %s, %v", backup, err)
	}
	os.WriteFile(path, bad3, 0o600)
	if backup, err = config.Reset(path); err != nil || backup != path+".bak.2" {
		t.Fatalf("third backup at %s, %v", backup, err)
	}
	for name, want := range map[string][]byte{".bak": bad1, ".bak.1": bad2, ".bak.2": bad3} {
		got, err := os.ReadFile(path + name)
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s holds %q, %v; want %q", name, got, err, want)
		}
	}

	t.Run("resetting when there is no file writes defaults and makes no backup", func(t *testing.T) {
		p := filepath.Join(t.TempDir(), "settings.json")
		b, err := config.Reset(p)
		if err != nil || b != "" {
			t.Fatalf("backup %q, %v", b, err)
		}
		if _, err := os.Stat(p); err != nil {
			t.Fatal(err)
		}
	})
}

// TestPastedShellFlagsSayRemoveTheQuotes: the flags `ferry sim` prints for a
// shell, pasted into the extra flags as one line, are refused with the fix.
func TestPastedShellFlagsSayRemoveTheQuotes(t *testing.T) {
	s := config.Defaults()
	s.Browser.ExtraArgs = []string{`'--host-resolver-rules=MAP chatgpt.com 127.0.0.1:4443' --ignore-certificate-errors`}
	e := errs.From(s.Validate())
	if e == nil || !strings.Contains(e.Message, "remove the quotes") || !strings.Contains(e.Message, "own line") {
		t.Fatalf("got %v; want a refusal that says to remove the quotes and put each flag on its own line", e)
	}
}
