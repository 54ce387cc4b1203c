package demo

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// EnvDir names the demo's directory in the window process the
// supervisor starts; without it, --demo makes the process the supervisor.
const EnvDir = "FERRY_DEMO_DIR"

// leftoverWait bounds the wait for the processes the demo's window left
// (WebKit's helpers flush their storage as they exit) before they are
// killed.
const leftoverWait = 10 * time.Second

// Supervise is `ferry-desktop --demo`: it sets the demo up, runs the
// window (this program with the same arguments) until it exits, waits for
// what the window left, stops the simulator and removes the demo's
// directory. SIGTERM and SIGINT go on to the window, SIGHUP as SIGTERM,
// so that it closes as it would normally. It returns the window's exit status, or the errs
// exit code of a demo that could not start (the envelope printed to
// stderr).
func Supervise(log *slog.Logger, stderr io.Writer) int {
	d, err := startDemo(context.Background(), log, stderr)
	if err != nil {
		fmt.Fprintln(stderr, errs.From(err).Human())
		return errs.ExitCode(err)
	}
	defer d.stop()
	if err := adoptOrphans(); err != nil {
		log.Warn("the demo cannot wait for its window's helpers", "err", err)
	}
	exe, err := os.Executable()
	if err != nil {
		env := errs.Wrap(err, errs.Internal, "find the running ferry-desktop: %v", err)
		fmt.Fprintln(stderr, env.Human())
		return errs.ExitCode(env)
	}
	win := exec.Command(exe, os.Args[1:]...)
	win.Env = append(os.Environ(), EnvDir+"="+d.dir)
	win.Stdin, win.Stdout, win.Stderr = os.Stdin, stderr, stderr
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sigs)
	if err := win.Start(); err != nil {
		env := errs.Wrap(err, errs.Internal, "open the demo's window: %v", err)
		fmt.Fprintln(stderr, env.Human())
		return errs.ExitCode(env)
	}
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-sigs:
				if s == syscall.SIGHUP {
					s = syscall.SIGTERM // the window closes normally on SIGTERM, and dies on SIGHUP
				}
				_ = win.Process.Signal(s)
			case <-done:
				return
			}
		}
	}()
	err = win.Wait()
	close(done)
	code := 0
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		code = 1
	}
	d.stopSim()
	if left := waitOrphans(leftoverWait); len(left) > 0 {
		log.Warn("killed what the demo's window left running", "pids", left)
	}
	return code
}

// Window is the demo as the window process sees it: the directory the
// supervisor made, named by EnvDir. Errors: bad_input when the data
// directory in force is not inside it (the window was not started by
// `ferry-desktop --demo`).
func Window(getenv func(string) string) (*Demo, error) {
	dir := getenv(EnvDir)
	paths, err := config.ResolvePaths("")
	if err != nil {
		return nil, err
	}
	if dir == "" || !filepath.IsAbs(dir) || !strings.HasPrefix(paths.DataDir, filepath.Clean(dir)+string(filepath.Separator)) {
		return nil, errs.New(errs.BadInput, "%s names no demo this window may use", EnvDir).
			WithHint("start the demo with ferry-desktop --demo")
	}
	return &Demo{dir: dir}, nil
}
