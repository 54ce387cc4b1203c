// Package demo is demo mode (`ferry-desktop --demo`): the whole app against the built-in
// simulator, on a throw-away data directory. The process started with
// --demo is a small supervisor (Supervise): it makes the demo's
// private temporary directory, starts the simulator as its own process
// (`ferry sim --json`: the app imports no simulator), writes the demo's
// settings (the browser Ferry launches mapped to the simulator through
// browser.extraArgs), points the data, config and XDG directories into the
// directory and runs the window as a child. So nothing of the user's
// (store, settings, profile, history, WebKit's storage) is read or
// written. The window takes no tray icon and no global hotkey (a normal
// Ferry may hold them) and never changes autostart; its gateway serves the
// demo's data directory on a port of its own. When the window has closed
// and every process it left (WebKit's helpers, the browser's) has ended,
// the supervisor stops the simulator and removes the directory.
//
// The window of a demo knows it by Window; a normal window starts one
// with a Launcher.
package demo

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// demoFlag starts the desktop in demo mode.
const demoFlag = "--demo"

// demoScenario is the simulator's answer to every prompt in the demo: a
// code-mode prompt gets its zip, any other prompt a normal answer.
const demoScenario = "by_contract"

// simReadyTimeout bounds the wait for the simulator's address.
const simReadyTimeout = 30 * time.Second

// Wanted reports whether args (after the program name) ask for demo mode.
func Wanted(args []string) bool {
	for _, a := range args {
		if a == demoFlag {
			return true
		}
	}
	return false
}

// Demo is a running demo: its private directory and the simulator.
type Demo struct {
	dir     string // the private temporary directory; everything of the demo is under it
	sim     *exec.Cmd
	simDone chan struct{}
	log     *slog.Logger
}

// simHello is what `ferry sim --json` prints once it listens.
type simHello struct {
	Addr          string   `json:"addr"`
	ChromiumFlags []string `json:"chromiumFlags"`
	Index         string   `json:"index"`
}

// demoEnv lists the variables startDemo points into the demo's directory,
// each with the subdirectory it names.
var demoEnv = []struct{ key, sub string }{
	{config.EnvDataDir, "data"},
	{config.EnvConfigDir, "data"},
	{"XDG_CONFIG_HOME", "xdg/config"}, // Chromium keeps its crash reports there, whatever its profile
	{"XDG_DATA_HOME", "xdg/data"},
	{"XDG_CACHE_HOME", "xdg/cache"},
	{"XDG_STATE_HOME", "xdg/state"},
}

// startDemo makes the demo's private directory, starts the simulator from
// the ferry binary beside this executable (else on PATH), writes the
// demo's settings (the browser mapped to the simulator; the user's theme
// and browser binary, only read) and points this process's data, config
// and XDG directories at it, for the window it starts. Errors:
// environment_not_ready when no ferry binary is found or the simulator
// does not start; data_dir_unwritable and the file system's. Nothing is
// left behind on error.
func startDemo(ctx context.Context, log *slog.Logger, stderr io.Writer) (*Demo, error) {
	ferry, err := ferryBinary()
	if err != nil {
		return nil, err
	}
	st := demoSettings()
	dir, err := os.MkdirTemp("", "ferry-demo-")
	if err != nil {
		return nil, errs.Wrap(err, errs.DataDirUnwritable, "make the demo's directory: %v", err)
	}
	d := &Demo{dir: dir, log: log}
	abort := func(err error) (*Demo, error) {
		d.stopSim()
		_ = os.RemoveAll(dir)
		return nil, err
	}
	for _, e := range demoEnv {
		if err := os.MkdirAll(filepath.Join(dir, e.sub), 0o700); err != nil {
			return abort(errs.Wrap(err, errs.DataDirUnwritable, "make the demo's directory: %v", err))
		}
	}
	hello, err := d.startSim(ctx, ferry, stderr)
	if err != nil {
		return abort(err)
	}
	for _, e := range demoEnv {
		if err := os.Setenv(e.key, filepath.Join(dir, e.sub)); err != nil {
			return abort(errs.Wrap(err, errs.Internal, "set %s for the demo: %v", e.key, err))
		}
	}
	paths, err := config.ResolvePaths("")
	if err != nil {
		return abort(err)
	}
	st.Browser.ExtraArgs = hello.ChromiumFlags
	// The demo is the app at work, not its first run: no Get started view.
	st.WelcomeDismissed = true
	if err := config.Save(paths.SettingsFile(), st); err != nil {
		return abort(fmt.Errorf("write the demo's settings: %w", err))
	}
	log.Info("demo started", "dir", dir, "sim", d.sim.Process.Pid, "addr", hello.Addr)
	return d, nil
}

// ferryBinary is the ferry command beside the running executable, else the
// one on PATH. Errors: environment_not_ready when there is neither.
func ferryBinary() (string, error) {
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		p := filepath.Join(filepath.Dir(exe), "ferry")
		if fi, err := os.Stat(p); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
			return p, nil
		}
	}
	p, err := exec.LookPath("ferry")
	if err != nil {
		return "", errs.Wrap(err, errs.EnvironmentNotReady, "the demo needs the ferry command, found neither beside ferry-desktop nor on PATH").
			WithHint("install Ferry's package, or build both programs with make build")
	}
	return p, nil
}

// demoSettings are the defaults with the user's theme, so the demo looks
// like their Ferry, and their browser binary, which may be the one browser
// on this machine. The user's settings are only read; unreadable ones
// give the defaults.
func demoSettings() config.Settings {
	st := config.Defaults()
	paths, err := config.ResolvePaths("")
	if err != nil {
		return st
	}
	user, err := config.Load(paths.SettingsFile())
	if err != nil {
		return st
	}
	st.Theme, st.Browser.Binary = user.Theme, user.Browser.Binary
	return st
}

// startSim runs `ferry sim --json` and reads the address and Chromium
// flags it prints. Errors: environment_not_ready when it does not start
// or says nothing within simReadyTimeout.
func (d *Demo) startSim(ctx context.Context, ferry string, stderr io.Writer) (simHello, error) {
	cmd := exec.Command(ferry, "sim", "--json", "--scenario", demoScenario)
	cmd.Env = os.Environ()
	for _, e := range demoEnv {
		cmd.Env = append(cmd.Env, e.key+"="+filepath.Join(d.dir, e.sub))
	}
	cmd.Dir = d.dir
	cmd.Stderr = stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		return simHello{}, errs.Wrap(err, errs.Internal, "start the simulator: %v", err)
	}
	if err := cmd.Start(); err != nil {
		return simHello{}, errs.Wrap(err, errs.EnvironmentNotReady, "start the simulator (%s sim): %v", ferry, err)
	}
	d.sim, d.simDone = cmd, make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(d.simDone)
	}()
	got := make(chan simHello, 1)
	go func() {
		var h simHello
		dec := json.NewDecoder(out)
		if dec.Decode(&h) == nil {
			got <- h
		}
		close(got)
		_, _ = io.Copy(io.Discard, io.MultiReader(dec.Buffered(), out))
	}()
	wait, cancel := context.WithTimeout(ctx, simReadyTimeout)
	defer cancel()
	select {
	case h, ok := <-got:
		if !ok || h.Addr == "" || len(h.ChromiumFlags) == 0 {
			return simHello{}, errs.New(errs.EnvironmentNotReady, "the simulator (%s sim) did not say where it listens", ferry).
				WithHint("run `ferry sim` in a terminal to see why")
		}
		return h, nil
	case <-wait.Done():
		return simHello{}, errs.New(errs.EnvironmentNotReady, "the simulator (%s sim) did not start within %s", ferry, simReadyTimeout)
	}
}

// stopSim ends the simulator: SIGTERM, then SIGKILL after 5 s. Safe more
// than once.
func (d *Demo) stopSim() {
	if d.sim == nil {
		return
	}
	_ = d.sim.Process.Signal(syscall.SIGTERM)
	select {
	case <-d.simDone:
	case <-time.After(5 * time.Second):
		_ = d.sim.Process.Kill()
		<-d.simDone
	}
}

// stop ends the simulator and removes the demo's directory; the window,
// and with it the browser it launched, must have ended first. Safe on nil
// and more than once.
func (d *Demo) stop() {
	if d == nil {
		return
	}
	d.stopSim()
	if err := removeDemoDir(d.dir); err != nil {
		d.log.Warn("remove the demo's directory", "dir", d.dir, "err", err)
		return
	}
	d.log.Info("demo left", "dir", d.dir)
}

// removeDemoDir removes dir, retrying briefly: a process that the
// subreaper could not wait for (see adoptOrphans) may still write into it.
func removeDemoDir(dir string) error {
	var err error
	for i := 0; i < 20; i++ {
		err = os.RemoveAll(dir)
		if err == nil {
			if _, serr := os.Stat(dir); errors.Is(serr, fs.ErrNotExist) {
				return nil
			}
		}
		time.Sleep(100 * time.Millisecond)
	}
	if err != nil {
		return fmt.Errorf("remove %s: %w", dir, err)
	}
	return fmt.Errorf("remove %s: still there", dir)
}
