package demo

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeFerry puts a `ferry` on PATH whose `sim` prints what the real one
// prints with --json, records its arguments beside itself and its
// environment's data directory, then waits to be stopped.
func fakeFerry(t *testing.T, hello string) (binDir string) {
	t.Helper()
	binDir = t.TempDir()
	script := "#!/bin/sh\n" +
		"echo \"$@\" > \"" + binDir + "/args\"\n" +
		"echo \"$FERRY_DATA_DIR\" > \"" + binDir + "/datadir\"\n" +
		"printf '%s\\n' '" + hello + "'\n" +
		"exec sleep 60\n"
	if err := os.WriteFile(filepath.Join(binDir, "ferry"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", binDir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return binDir
}

// userDirs points every per-user location at a fresh temporary "user"
// whose settings choose the dark theme, a browser binary and a flag of
// their own, and returns its data directory.
func userDirs(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	data := filepath.Join(home, "data")
	for k, v := range map[string]string{
		"HOME": home, config.EnvDataDir: data, config.EnvConfigDir: "",
		"XDG_DATA_HOME": filepath.Join(home, "share"), "XDG_CACHE_HOME": filepath.Join(home, "cache"),
		"XDG_STATE_HOME": filepath.Join(home, "state"), "XDG_CONFIG_HOME": filepath.Join(home, "config"),
	} {
		t.Setenv(k, v)
	}
	st := config.Defaults()
	st.Theme = config.ThemeDark
	st.Browser.Binary = "chromium"
	st.Browser.ExtraArgs = []string{"--lang=fr"}
	if err := os.MkdirAll(data, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := config.Save(filepath.Join(data, "settings.json"), st); err != nil {
		t.Fatal(err)
	}
	return data
}

func TestDemoMode(t *testing.T) {
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	flags := []string{"--host-resolver-rules=MAP chatgpt.com 127.0.0.1:4444", "--ignore-certificate-errors"}

	t.Run("--demo is read among the other arguments", func(t *testing.T) {
		if !Wanted([]string{"-devserver", "x", "--demo"}) || Wanted(nil) || Wanted([]string{"--hidden", "-demo"}) {
			t.Error("Wanted reads the arguments wrong")
		}
	})

	t.Run("the demo runs the simulator on a private directory that the browser settings map to it, and leaves nothing", func(t *testing.T) {
		bin := fakeFerry(t, `{"addr":"127.0.0.1:4444","chromiumFlags":["`+flags[0]+`","`+flags[1]+`"],"index":"https://chatgpt.com/__sim/"}`)
		user := userDirs(t)
		before, err := os.ReadFile(filepath.Join(user, "settings.json"))
		if err != nil {
			t.Fatal(err)
		}
		d, err := startDemo(context.Background(), log, io.Discard)
		if err != nil {
			t.Fatal(err)
		}
		stopped := false
		defer func() {
			if !stopped {
				d.stop()
			}
		}()
		if !strings.HasPrefix(filepath.Base(d.dir), "ferry-demo-") {
			t.Errorf("the demo's directory is %s", d.dir)
		}
		if fi, err := os.Stat(d.dir); err != nil || fi.Mode().Perm() != 0o700 {
			t.Fatalf("the demo's directory: %v %v, want private", fi, err)
		}
		paths, err := config.ResolvePaths("")
		if err != nil {
			t.Fatal(err)
		}
		if paths.DataDir != filepath.Join(d.dir, "data") || paths.SettingsFile() != filepath.Join(d.dir, "data", "settings.json") {
			t.Errorf("the core would open %s with settings %s, want the demo's", paths.DataDir, paths.SettingsFile())
		}
		for _, k := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"} {
			if v := os.Getenv(k); !strings.HasPrefix(v, d.dir+string(filepath.Separator)) {
				t.Errorf("%s=%s, want under the demo's directory", k, v)
			}
		}
		st, err := config.Load(paths.SettingsFile())
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st.Browser.ExtraArgs, flags) || st.Browser.AttachURL != "" || st.Browser.Headless ||
			st.Browser.Binary != "chromium" || st.Theme != config.ThemeDark || !st.WelcomeDismissed {
			t.Errorf("the demo's settings: browser %+v, theme %s", st.Browser, st.Theme)
		}
		args, _ := os.ReadFile(filepath.Join(bin, "args"))
		if got := strings.TrimSpace(string(args)); got != "sim --json --scenario by_contract" {
			t.Errorf("the simulator was started as `ferry %s`", got)
		}
		simData, _ := os.ReadFile(filepath.Join(bin, "datadir"))
		if got := strings.TrimSpace(string(simData)); got != paths.DataDir {
			t.Errorf("the simulator ran with FERRY_DATA_DIR=%s", got)
		}
		if !apptest.ProcessAlive(d.sim.Process.Pid) {
			t.Fatal("the simulator is not running")
		}

		d.stop()
		stopped = true
		select {
		case <-d.simDone:
		case <-time.After(5 * time.Second):
			t.Fatal("the simulator still runs after the demo stopped")
		}
		if _, err := os.Stat(d.dir); !os.IsNotExist(err) {
			t.Errorf("the demo's directory is still there: %v", err)
		}
		after, err := os.ReadFile(filepath.Join(user, "settings.json"))
		if err != nil || !bytes.Equal(before, after) {
			t.Errorf("the user's settings changed: %v", err)
		}
		d.stop() // twice is harmless
	})

	t.Run("a simulator that says nothing fails the start and leaves no directory", func(t *testing.T) {
		fakeFerry(t, "not json")
		userDirs(t)
		tmp := t.TempDir()
		t.Setenv("TMPDIR", tmp)
		_, err := startDemo(context.Background(), log, io.Discard)
		if errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Fatalf("startDemo = %v, want environment_not_ready", err)
		}
		if left, _ := os.ReadDir(tmp); len(left) != 0 {
			t.Errorf("left behind: %v", left)
		}
	})

	t.Run("without a ferry command the demo says what to install", func(t *testing.T) {
		userDirs(t)
		t.Setenv("PATH", t.TempDir())
		_, err := startDemo(context.Background(), log, io.Discard)
		if errs.CodeOf(err) != errs.EnvironmentNotReady || errs.From(err).RetryHint == "" {
			t.Fatalf("startDemo = %v, want environment_not_ready with a hint", err)
		}
	})

}

func TestDemoLauncher(t *testing.T) {
	dir := t.TempDir()
	exe := filepath.Join(dir, "ferry-desktop")
	gate := filepath.Join(dir, "gate")
	// The fake desktop records its arguments, then runs until the gate
	// file appears.
	script := "#!/bin/sh\necho \"$@\" > \"" + dir + "/args\"\nwhile [ ! -e \"" + gate + "\" ]; do sleep 0.05; done\n"
	if err := os.WriteFile(exe, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []string
	note := func(s string) func() {
		return func() { mu.Lock(); seen = append(seen, s); mu.Unlock() }
	}
	shown := make(chan struct{}, 1)
	l := &Launcher{exe: func() (string, error) { return exe, nil }, hide: note("hide"),
		show: func() { note("show")(); shown <- struct{}{} }, stderr: io.Discard,
		log: slog.New(slog.NewTextHandler(io.Discard, nil))}

	if err := l.Start(); err != nil {
		t.Fatal(err)
	}
	if err := l.Start(); errs.CodeOf(err) != errs.BadInput {
		t.Errorf("a second demo while one runs: %v, want bad_input", err)
	}
	mu.Lock()
	got := strings.Join(seen, " ")
	mu.Unlock()
	if got != "hide" {
		t.Errorf("while the demo runs the window saw %q, want hide", got)
	}
	if err := os.WriteFile(gate, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	select {
	case <-shown:
	case <-time.After(10 * time.Second):
		t.Fatal("the window was not shown again after the demo ended")
	}
	if args, _ := os.ReadFile(filepath.Join(dir, "args")); strings.TrimSpace(string(args)) != "--demo" {
		t.Errorf("the demo was started with %q", args)
	}
	if err := l.Start(); err != nil {
		t.Errorf("a demo after the first ended: %v", err)
	}
	mu.Lock()
	got = strings.Join(seen, " ")
	mu.Unlock()
	if got != "hide show hide" {
		t.Errorf("the window saw %q", got)
	}
	<-shown
}

func TestDemoWindow(t *testing.T) {
	demoDir := t.TempDir()
	env := map[string]string{}
	getenv := func(k string) string { return env[k] }
	t.Run("a window whose data directory is the demo's is the demo", func(t *testing.T) {
		t.Setenv(config.EnvDataDir, filepath.Join(demoDir, "data"))
		env[EnvDir] = demoDir
		d, err := Window(getenv)
		if err != nil || d.dir != demoDir {
			t.Fatalf("Window = %+v, %v", d, err)
		}
	})
	t.Run("a demo directory that does not hold the data directory is refused", func(t *testing.T) {
		t.Setenv(config.EnvDataDir, filepath.Join(t.TempDir(), "data"))
		for _, dir := range []string{demoDir, "", "relative"} {
			env[EnvDir] = dir
			if _, err := Window(getenv); errs.CodeOf(err) != errs.BadInput {
				t.Errorf("%s=%q: %v, want bad_input", EnvDir, dir, err)
			}
		}
	})
}
