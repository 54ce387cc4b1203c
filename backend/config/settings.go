package config

import (
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// SettingsVersion is the settings format this build writes. Files without a
// version are read as this version.
const SettingsVersion = 1

// Settings is the content of settings.json. Field names in JSON are
// camelCase; every field is optional in the file and missing ones take the
// value from Defaults.
type Settings struct {
	Version       int                 `json:"version"`
	Theme         string              `json:"theme"` // "system", "light" or "dark"
	Browser       BrowserSettings     `json:"browser"`
	QuickPrompt   QuickPromptSettings `json:"quickPrompt"`
	Notifications bool                `json:"notifications"`
	Run           RunSettings         `json:"run"`
	Artifacts     ArtifactSettings    `json:"artifacts"`
	// Sites are user site definitions and overrides, merged by id over the
	// built-in sites; package site validates them.
	Sites []json.RawMessage `json:"sites"`
	// WelcomeDismissed says the user left the desktop's Get started view:
	// it opens again only when asked for (Settings, the sidebar).
	WelcomeDismissed bool `json:"welcomeDismissed,omitempty"`
	// BroadcastSites are the sites the desktop's broadcast is set to send
	// to: the user's choice, offered again after a restart.
	BroadcastSites []string `json:"broadcastSites,omitempty"`
}

// BrowserSettings say which browser Ferry drives.
type BrowserSettings struct {
	Binary    string   `json:"binary"`    // "" discovers Chromium/Chrome; else a path or a command name
	Headless  bool     `json:"headless"`  // run the launched browser without a window
	ExtraArgs []string `json:"extraArgs"` // extra command-line flags for the launched browser
	AttachURL string   `json:"attachURL"` // drive a running browser: ws:// or http:// on loopback, or a DevToolsActivePort file
}

// QuickPromptSettings configure the tray's quick-prompt box.
type QuickPromptSettings struct {
	Hotkey      string `json:"hotkey"`      // global shortcut, e.g. "Ctrl+Shift+Space"
	DefaultSite string `json:"defaultSite"` // site id the box sends to
}

// RunSettings configure runs.
type RunSettings struct {
	AnswerTimeout string `json:"answerTimeout"` // Go duration, e.g. "20m"
	// RateLimitCooldown is the wait after a "Too many requests" refusal
	// before the one retry (Go duration; "" is the default, 300 s).
	RateLimitCooldown string `json:"rateLimitCooldown,omitempty"`
	// NoFailureScreenshot leaves the screenshot out of the snapshot a
	// failed run keeps for `ferry report` (the page is redacted, a picture
	// of it cannot be).
	NoFailureScreenshot bool `json:"noFailureScreenshot,omitempty"`
}

// ArtifactSettings limit what Ferry accepts as an artifact.
type ArtifactSettings struct {
	OutputDir                 string  `json:"outputDir"` // "" is the data dir's artifacts/
	MaxZipBytes               int64   `json:"maxZipBytes"`
	MaxEntries                int     `json:"maxEntries"`
	MaxTotalUncompressedBytes int64   `json:"maxTotalUncompressedBytes"`
	MaxRatio                  float64 `json:"maxRatio"` // uncompressed/compressed, per entry and overall
}

// Theme values.
const (
	ThemeSystem = "system"
	ThemeLight  = "light"
	ThemeDark   = "dark"
)

// Answer timeout bounds: shorter cuts off real answers, longer hides a hang.
const (
	MinAnswerTimeout = 10 * time.Second
	MaxAnswerTimeout = 24 * time.Hour
)

// Defaults returns the settings of a fresh install.
func Defaults() Settings {
	return Settings{
		Version: SettingsVersion,
		Theme:   ThemeSystem,
		Browser: BrowserSettings{ExtraArgs: []string{}},
		QuickPrompt: QuickPromptSettings{
			Hotkey:      "Ctrl+Shift+Space",
			DefaultSite: "chatgpt",
		},
		Notifications: true,
		Run:           RunSettings{AnswerTimeout: "20m"},
		Artifacts: ArtifactSettings{
			MaxZipBytes:               512 << 20,
			MaxEntries:                10000,
			MaxTotalUncompressedBytes: 2 << 30,
			MaxRatio:                  100,
		},
		Sites: []json.RawMessage{},
	}
}

// Rate-limit cooldown bounds: the sites lock for minutes, and a run should
// not sit idle for longer than an hour.
const (
	DefaultRateLimitCooldown = 300 * time.Second
	MinRateLimitCooldown     = time.Second
	MaxRateLimitCooldown     = time.Hour
)

// RateLimitCooldownDuration is Run.RateLimitCooldown parsed; call it on
// validated settings ("" and an unparsable value give the default).
func (s Settings) RateLimitCooldownDuration() time.Duration {
	d, err := time.ParseDuration(s.Run.RateLimitCooldown)
	if err != nil {
		return DefaultRateLimitCooldown
	}
	return d
}

// AnswerTimeoutDuration is Run.AnswerTimeout parsed; call it on validated
// settings (it returns the default for an unparsable value).
func (s Settings) AnswerTimeoutDuration() time.Duration {
	d, err := time.ParseDuration(s.Run.AnswerTimeout)
	if err != nil {
		return 20 * time.Minute
	}
	return d
}

// FieldError is the cause inside a ConfigInvalid envelope from Validate: the
// setting's JSON path and what is wrong with it.
type FieldError struct {
	Field   string // JSON path, e.g. "quickPrompt.hotkey" or "browser.extraArgs[1]"
	Problem string // e.g. `must be one of system, light, dark (got "blue")`
}

func (e *FieldError) Error() string { return "setting " + e.Field + " " + e.Problem }

// Validate checks every setting and returns the first problem as an
// errs.ConfigInvalid envelope whose message names the field and the allowed
// values, with evidence "field"; the cause is a *FieldError.
func (s Settings) Validate() error {
	if fe := s.check(); fe != nil {
		return errs.Wrap(fe, errs.ConfigInvalid, "%s", fe.Error()).WithEvidence("field", fe.Field).WithEvidence("problem", fe.Problem)
	}
	return nil
}

func (s Settings) check() *FieldError {
	bad := func(field, format string, args ...any) *FieldError {
		return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	switch {
	case s.Version < 1:
		return bad("version", "must be %d (got %d)", SettingsVersion, s.Version)
	case s.Version > SettingsVersion:
		return bad("version", "is %d, but this Ferry reads settings up to version %d: upgrade Ferry", s.Version, SettingsVersion)
	}
	switch s.Theme {
	case ThemeSystem, ThemeLight, ThemeDark:
	default:
		return bad("theme", "must be one of system, light, dark (got %q)", s.Theme)
	}
	if fe := s.Browser.check(); fe != nil {
		return fe
	}
	if _, err := ParseHotkey(s.QuickPrompt.Hotkey); err != nil {
		return bad("quickPrompt.hotkey", "%v", err)
	}
	for i, id := range s.BroadcastSites {
		if !validSiteID(id) {
			return bad(fmt.Sprintf("broadcastSites[%d]", i), "must be a site id such as chatgpt, gemini or claude (got %q)", id)
		}
	}
	if !validSiteID(s.QuickPrompt.DefaultSite) {
		return bad("quickPrompt.defaultSite", "must be a site id such as chatgpt, gemini or claude: lower-case letters, digits and '-' (got %q)", s.QuickPrompt.DefaultSite)
	}
	d, err := time.ParseDuration(s.Run.AnswerTimeout)
	switch {
	case err != nil:
		return bad("run.answerTimeout", "must be a duration such as \"20m\", \"1h30m\" or \"90s\" (got %q)", s.Run.AnswerTimeout)
	case d < MinAnswerTimeout || d > MaxAnswerTimeout:
		return bad("run.answerTimeout", "must be between %v and %v (got %q)", MinAnswerTimeout, "24h", s.Run.AnswerTimeout)
	}
	if c := s.Run.RateLimitCooldown; c != "" {
		d, err := time.ParseDuration(c)
		switch {
		case err != nil:
			return bad("run.rateLimitCooldown", "must be a duration such as \"5m\" or \"90s\" (got %q)", c)
		case d < MinRateLimitCooldown || d > MaxRateLimitCooldown:
			return bad("run.rateLimitCooldown", "must be between %v and %v (got %q)", MinRateLimitCooldown, "1h", c)
		}
	}
	a := s.Artifacts
	switch {
	case a.OutputDir != "" && !filepath.IsAbs(a.OutputDir):
		return bad("artifacts.outputDir", "must be an absolute path, or \"\" for the data directory's artifacts folder (got %q)", a.OutputDir)
	case a.MaxZipBytes <= 0:
		return bad("artifacts.maxZipBytes", "must be a positive number of bytes, e.g. 536870912 for 512 MiB (got %d)", a.MaxZipBytes)
	case a.MaxEntries <= 0:
		return bad("artifacts.maxEntries", "must be a positive number of zip entries, e.g. 10000 (got %d)", a.MaxEntries)
	case a.MaxTotalUncompressedBytes <= 0:
		return bad("artifacts.maxTotalUncompressedBytes", "must be a positive number of bytes, e.g. 2147483648 for 2 GiB (got %d)", a.MaxTotalUncompressedBytes)
	case !(a.MaxRatio >= 1):
		return bad("artifacts.maxRatio", "must be a compression ratio of at least 1, e.g. 100 (got %v)", a.MaxRatio)
	}
	for i, raw := range s.Sites {
		if t := strings.TrimSpace(string(raw)); !strings.HasPrefix(t, "{") {
			return bad(fmt.Sprintf("sites[%d]", i), "must be an object such as {\"id\": \"mysite\", ...} (got %.40s)", t)
		}
	}
	return nil
}

// refusedBrowserFlags are the flags no one may add to a browser Ferry
// launches: Ferry sets DevTools and the profile itself (overriding them
// would open DevTools beyond loopback or to other origins, or point the
// browser at another profile), and the rest weaken the sandbox or the
// same-origin policy of a browser that holds the user's logged-in sessions.
var refusedBrowserFlags = []string{
	"remote-allow-origins", "remote-debugging-address", "remote-debugging-port", "remote-debugging-pipe",
	"remote-debugging-io-pipes", "user-data-dir",
	"no-sandbox", "disable-setuid-sandbox", "disable-gpu-sandbox", "no-zygote", "single-process",
	"disable-web-security", "disable-site-isolation-trials",
}

// RefusedBrowserArg reports whether arg sets a flag Ferry refuses for the
// browsers it launches, and that flag's canonical name. The flag is read
// the way Chromium reads it: one or two leading dashes, any case, a value
// after "=".
func RefusedBrowserArg(arg string) (flag string, refused bool) {
	name, _, _ := strings.Cut(strings.TrimLeft(strings.TrimSpace(arg), "-"), "=")
	name = strings.ToLower(name)
	for _, r := range refusedBrowserFlags {
		if name == r {
			return "--" + r, true
		}
	}
	return "", false
}

func (b BrowserSettings) check() *FieldError {
	bad := func(field, format string, args ...any) *FieldError {
		return &FieldError{Field: field, Problem: fmt.Sprintf(format, args...)}
	}
	if b.Binary != "" && !filepath.IsAbs(b.Binary) && strings.ContainsAny(b.Binary, `/\`) {
		return bad("browser.binary", "must be an absolute path, a command name found in PATH such as \"chromium\", or \"\" to discover one (got %q)", b.Binary)
	}
	for i, arg := range b.ExtraArgs {
		field := fmt.Sprintf("browser.extraArgs[%d]", i)
		if shellQuoted(arg) {
			return bad(field, "has shell quotes (got %s): remove the quotes, and put each flag on its own line; Ferry hands each flag to the browser as it is, without a shell, so a space inside a flag needs no quotes", arg)
		}
		if strings.Contains(arg, " --") {
			return bad(field, "holds more than one flag (got %q): put each flag on its own line", arg)
		}
		if !strings.HasPrefix(arg, "-") {
			return bad(field, "must be a command-line flag starting with '-' (got %q)", arg)
		}
		if r, refused := RefusedBrowserArg(arg); refused {
			return bad(field, "sets %s, which Ferry manages itself or refuses (DevTools, the profile, the sandbox): remove it (use browser.attachURL to drive a browser you started)", r)
		}
	}
	if b.AttachURL != "" {
		if msg := checkAttachURL(b.AttachURL); msg != "" {
			return bad("browser.attachURL", "%s (got %q)", msg, b.AttachURL)
		}
	}
	return nil
}

// shellQuoted reports whether arg carries the quotes a shell would have
// removed: it starts with one, or a flag's value is wrapped in them
// (--flag='v', --flag="v"), as when a command line printed for a shell is
// pasted.
func shellQuoted(arg string) bool {
	if strings.HasPrefix(arg, "'") || strings.HasPrefix(arg, `"`) {
		return true
	}
	_, v, ok := strings.Cut(arg, "=")
	return ok && len(v) >= 2 && (v[0] == '\'' && v[len(v)-1] == '\'' || v[0] == '"' && v[len(v)-1] == '"')
}

// checkAttachURL accepts a DevTools endpoint on loopback (ws, wss, http,
// https) or the absolute path of a DevToolsActivePort file.
func checkAttachURL(v string) string {
	const allowed = "must be ws://127.0.0.1:PORT/devtools/browser/ID, http://127.0.0.1:PORT, or the absolute path of a profile's DevToolsActivePort file"
	if filepath.IsAbs(v) {
		return ""
	}
	u, err := url.Parse(v)
	if err != nil || u.Host == "" {
		return allowed
	}
	switch u.Scheme {
	case "ws", "wss", "http", "https":
	default:
		return allowed
	}
	host := u.Hostname()
	if host == "localhost" {
		return ""
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return ""
	}
	return "must point to this machine (127.0.0.1, ::1 or localhost): the DevTools protocol has no authentication"
}

func validSiteID(id string) bool {
	if id == "" || len(id) > 64 || id[0] == '-' {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-') {
			return false
		}
	}
	return true
}
