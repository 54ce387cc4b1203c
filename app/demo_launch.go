package app

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/backend/errs"
)

// demoLauncher starts the demo from a normal window: `ferry-desktop --demo`
// as a process of its own (its own data directory, its own core), with the
// normal window hidden until that process exits.
type demoLauncher struct {
	exe    func() (string, error)
	hide   func()
	show   func()
	stderr io.Writer
	log    *slog.Logger

	mu      sync.Mutex
	running *exec.Cmd
}

func newDemoLauncher(sh *shell, log *slog.Logger, stderr io.Writer) *demoLauncher {
	desk := runtimeDesktop{sh}
	return &demoLauncher{
		exe: func() (string, error) {
			exe, err := os.Executable()
			if err != nil {
				return "", err
			}
			if real, err := filepath.EvalSymlinks(exe); err == nil {
				exe = real
			}
			return exe, nil
		},
		hide: func() {
			if ctx, err := desk.windowContext(); err == nil {
				wruntime.WindowHide(ctx)
			}
		},
		show: func() {
			if ctx, err := desk.windowContext(); err == nil {
				wruntime.WindowShow(ctx)
			}
		},
		stderr: stderr,
		log:    log,
	}
}

// start runs the demo and hides this window until it exits. Errors:
// bad_input while a demo started here still runs; internal when this
// program's path is unknown or the process does not start.
func (l *demoLauncher) start() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.running != nil {
		return errs.New(errs.BadInput, "the demo is running already").
			WithHint("leave it with the button in its banner to come back here")
	}
	exe, err := l.exe()
	if err != nil {
		return errs.Wrap(err, errs.Internal, "find the running ferry-desktop: %v", err)
	}
	cmd := exec.Command(exe, demoFlag)
	cmd.Stdout, cmd.Stderr = l.stderr, l.stderr
	if err := cmd.Start(); err != nil {
		return errs.Wrap(err, errs.Internal, "start the demo: %v", err)
	}
	l.running = cmd
	l.log.Info("demo opened", "pid", cmd.Process.Pid)
	l.hide()
	go func() {
		err := cmd.Wait()
		l.mu.Lock()
		l.running = nil
		l.mu.Unlock()
		l.log.Info("demo closed", "err", err)
		l.show()
	}()
	return nil
}
