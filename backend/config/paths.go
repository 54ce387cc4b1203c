package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Environment variables that override the directories.
const (
	EnvDataDir   = "FERRY_DATA_DIR"
	EnvConfigDir = "FERRY_CONFIG_DIR"
)

// Where a directory came from, as reported in Paths.
const (
	SourceFlag    = "--data-dir"
	SourceEnvData = EnvDataDir
	SourceEnvConf = EnvConfigDir
	SourceDefault = "default"
)

// Paths are Ferry's directories, absolute.
type Paths struct {
	DataDir   string // holds db/, browser-profile/, artifacts/, the hub file
	ConfigDir string // holds settings.json

	DataSource   string // SourceFlag, SourceEnvData or SourceDefault
	ConfigSource string // SourceEnvConf, the data dir's source, or SourceDefault
}

// ResolvePaths finds the directories. Data dir: flagDataDir (--data-dir) >
// $FERRY_DATA_DIR > the platform default (Linux: $XDG_DATA_HOME/ferry or
// ~/.local/share/ferry; macOS: ~/Library/Application Support/Ferry; Windows:
// %LocalAppData%\Ferry). Config dir: $FERRY_CONFIG_DIR > the data dir when it
// was given by flag or environment > the platform's config directory
// (Linux: $XDG_CONFIG_HOME/ferry or ~/.config/ferry; macOS: the data dir,
// ~/Library/Application Support/Ferry; Windows: %AppData%\Ferry). A
// leading "~/" is expanded and relative paths are made absolute. Nothing is
// created.
//
// Errors: errs.BadInput naming the flag or variable when a value is
// unusable (a NUL byte, an existing non-directory) or when no home directory
// is known for the default.
func ResolvePaths(flagDataDir string) (Paths, error) {
	return resolvePaths(thisMachine(), flagDataDir)
}

func resolvePaths(m machine, flagDataDir string) (Paths, error) {
	var p Paths
	var err error
	switch {
	case flagDataDir != "":
		p.DataSource = SourceFlag
		p.DataDir, err = overrideDir(SourceFlag, flagDataDir)
	case m.getenv(EnvDataDir) != "":
		p.DataSource = SourceEnvData
		p.DataDir, err = overrideDir(EnvDataDir, m.getenv(EnvDataDir))
	default:
		p.DataSource = SourceDefault
		p.DataDir, err = m.defaultDataDir()
	}
	if err != nil {
		return Paths{}, err
	}
	switch {
	case m.getenv(EnvConfigDir) != "":
		p.ConfigSource = SourceEnvConf
		p.ConfigDir, err = overrideDir(EnvConfigDir, m.getenv(EnvConfigDir))
	case p.DataSource != SourceDefault:
		p.ConfigSource = p.DataSource
		p.ConfigDir = p.DataDir
	default:
		p.ConfigSource = SourceDefault
		p.ConfigDir, err = m.defaultConfigDir()
	}
	if err != nil {
		return Paths{}, err
	}
	return p, nil
}

// overrideDir checks and absolutises a directory given by the user through
// source (a flag or an environment variable).
func overrideDir(source, value string) (string, error) {
	bad := func(format string, args ...any) error {
		return errs.New(errs.BadInput, "%s %q: %s", source, value, fmt.Sprintf(format, args...)).
			WithEvidence("source", source).
			WithEvidence("path", value).
			WithHint("pass a directory path with %s, or unset it to use the default", source)
	}
	if strings.ContainsRune(value, 0) {
		return "", bad("the path contains a NUL byte")
	}
	if strings.TrimSpace(value) == "" {
		return "", bad("the path is blank")
	}
	path := value
	if path == "~" || strings.HasPrefix(path, "~/") || strings.HasPrefix(path, `~\`) {
		home, err := os.UserHomeDir()
		if err != nil {
			return "", bad("cannot expand ~: %v", err)
		}
		path = filepath.Join(home, path[1:])
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", bad("cannot make the path absolute: %v", err)
	}
	fi, err := os.Stat(abs)
	switch {
	case err == nil && !fi.IsDir():
		return "", bad("%s exists and is not a directory", abs)
	case err != nil && !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, fs.ErrPermission):
		return "", bad("cannot use %s: %v", abs, err)
	}
	return abs, nil
}

// machine is what the default directories are made of: the platform and
// its environment. ResolvePaths uses this process' own; tests give each
// platform's.
type machine struct {
	goos   string
	getenv func(string) string
	home   func() (string, error) // os.UserHomeDir
}

func thisMachine() machine {
	return machine{goos: runtime.GOOS, getenv: os.Getenv, home: os.UserHomeDir}
}

// join joins path elements with m's separator, whatever the platform
// running the code (filepath.Join when it is m).
func (m machine) join(elem ...string) string {
	if m.goos == runtime.GOOS {
		return filepath.Join(elem...)
	}
	if m.goos == "windows" {
		out := strings.TrimRight(elem[0], `\/`)
		for _, e := range elem[1:] {
			out += `\` + e
		}
		return out
	}
	return path.Join(elem...)
}

// isAbs reports whether p is an absolute path on m.
func (m machine) isAbs(p string) bool {
	if m.goos == runtime.GOOS {
		return filepath.IsAbs(p)
	}
	if m.goos == "windows" {
		drive := len(p) >= 3 && p[1] == ':' && (p[2] == '\\' || p[2] == '/') &&
			('a' <= p[0]|0x20 && p[0]|0x20 <= 'z')
		return drive || strings.HasPrefix(p, `\\`)
	}
	return strings.HasPrefix(p, "/")
}

func (m machine) homeDir() (string, error) {
	home, err := m.home()
	if err != nil || home == "" {
		variable := "HOME"
		if m.goos == "windows" {
			variable = "USERPROFILE"
		}
		return "", errs.New(errs.BadInput, "no home directory is known to put Ferry's data in").
			WithHint("set %s, or pass --data-dir or %s", variable, EnvDataDir)
	}
	return home, nil
}

// defaultDataDir is the platform's place for an application's own data:
// Windows %LocalAppData%\Ferry (the local, not roaming, profile: the store
// and the browser profile are large and bound to this machine), macOS
// ~/Library/Application Support/Ferry, elsewhere $XDG_DATA_HOME/ferry or
// ~/.local/share/ferry.
func (m machine) defaultDataDir() (string, error) {
	switch m.goos {
	case "windows":
		if d := m.getenv("LocalAppData"); d != "" && m.isAbs(d) {
			return m.join(d, "Ferry"), nil
		}
		home, err := m.homeDir()
		if err != nil {
			return "", err
		}
		return m.join(home, "AppData", "Local", "Ferry"), nil
	case "darwin", "ios":
		home, err := m.homeDir()
		if err != nil {
			return "", err
		}
		return m.join(home, "Library", "Application Support", "Ferry"), nil
	}
	// The XDG spec says a relative $XDG_DATA_HOME is invalid and ignored.
	if d := m.getenv("XDG_DATA_HOME"); d != "" && m.isAbs(d) {
		return m.join(d, "ferry"), nil
	}
	home, err := m.homeDir()
	if err != nil {
		return "", err
	}
	return m.join(home, ".local", "share", "ferry"), nil
}

// defaultConfigDir is os.UserConfigDir's place, named for Ferry: Windows
// %AppData%\Ferry (the roaming profile: settings follow the user),
// macOS ~/Library/Application Support/Ferry (the data directory itself),
// elsewhere $XDG_CONFIG_HOME/ferry or ~/.config/ferry.
func (m machine) defaultConfigDir() (string, error) {
	noConfig := func(format string, args ...any) error {
		return errs.New(errs.BadInput, format, args...).
			WithHint("set HOME (or XDG_CONFIG_HOME to an absolute path), or set %s", EnvConfigDir)
	}
	switch m.goos {
	case "windows":
		if d := m.getenv("AppData"); d != "" && m.isAbs(d) {
			return m.join(d, "Ferry"), nil
		}
		home, err := m.homeDir()
		if err != nil {
			return "", errs.From(err).WithHint("set AppData or USERPROFILE, or set %s", EnvConfigDir)
		}
		return m.join(home, "AppData", "Roaming", "Ferry"), nil
	case "darwin", "ios":
		home, err := m.homeDir()
		if err != nil {
			return "", noConfig("no config directory is known: no home directory")
		}
		return m.join(home, "Library", "Application Support", "Ferry"), nil
	}
	if d := m.getenv("XDG_CONFIG_HOME"); d != "" {
		if !m.isAbs(d) {
			return "", noConfig("no config directory is known: $XDG_CONFIG_HOME %q is relative", d)
		}
		return m.join(d, "ferry"), nil
	}
	home, err := m.home()
	if err != nil || home == "" {
		return "", noConfig("no config directory is known: neither $XDG_CONFIG_HOME nor $HOME is defined")
	}
	return m.join(home, ".config", "ferry"), nil
}

// SettingsFile is ConfigDir/settings.json.
func (p Paths) SettingsFile() string { return filepath.Join(p.ConfigDir, "settings.json") }

// StoreDir is DataDir/db, the badger store.
func (p Paths) StoreDir() string { return filepath.Join(p.DataDir, "db") }

// ProfileDir is DataDir/browser-profile, Ferry's own Chromium profile.
func (p Paths) ProfileDir() string { return filepath.Join(p.DataDir, "browser-profile") }

// ArtifactsDir is DataDir/artifacts, the default output of verified files.
func (p Paths) ArtifactsDir() string { return filepath.Join(p.DataDir, "artifacts") }

// BackupsDir is DataDir/backups, the rolling backups of the history
// (package store: history-<UTC time>.backup, the newest three).
func (p Paths) BackupsDir() string { return filepath.Join(p.DataDir, "backups") }

// MCPPendingDir is where `ferry mcp` keeps the out_dir of each code job it
// started until the job's zips were copied there, so that the next `ferry
// mcp` copies them when the one that started the job is gone.
func (p Paths) MCPPendingDir() string { return filepath.Join(p.DataDir, "mcp-pending") }

// HubFile is DataDir/hub.json, where a running owner publishes its local
// API's port and token (mode 0600).
func (p Paths) HubFile() string { return filepath.Join(p.DataDir, "hub.json") }

// EnsureDataDir creates DataDir (mode 0700, parents included; on Windows
// with an owner-only ACL that everything created in it inherits, given to
// the default directory too when it already exists) and proves it writable
// by creating, syncing and removing a probe file. Errors:
// errs.DataDirUnwritable naming the directory and the cause.
func (p Paths) EnsureDataDir() error {
	unwritable := func(err error) error {
		if errs.IsNoSpace(err) {
			return errs.Wrap(err, errs.DiskFull, "the disk holding data directory %s is full: %v", p.DataDir, rootCause(err)).
				WithEvidence("dir", p.DataDir)
		}
		return errs.Wrap(err, errs.DataDirUnwritable, "data directory %s is not writable: %v", p.DataDir, rootCause(err)).
			WithEvidence("dir", p.DataDir)
	}
	_, statErr := os.Stat(p.DataDir)
	if err := os.MkdirAll(p.DataDir, 0o700); err != nil {
		return unwritable(err)
	}
	// A directory Ferry made, or its default one, is the user's alone; a
	// directory the user chose and already had keeps its access rules
	// (the doctor reports them).
	if errors.Is(statErr, fs.ErrNotExist) || p.DataSource == SourceDefault {
		if err := protectDataDir(p.DataDir); err != nil {
			return unwritable(err)
		}
	}
	f, err := os.CreateTemp(p.DataDir, ".write-probe-*")
	if err != nil {
		return unwritable(err)
	}
	name := f.Name()
	defer os.Remove(name)
	if _, err := f.Write([]byte("ferry write probe\n")); err != nil {
		f.Close()
		return unwritable(err)
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return unwritable(err)
	}
	if err := f.Close(); err != nil {
		return unwritable(err)
	}
	if err := os.Remove(name); err != nil {
		return unwritable(err)
	}
	return nil
}

// rootCause drops the *fs.PathError around an error whose message already
// names the path.
func rootCause(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
