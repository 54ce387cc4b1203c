package demo

import (
	"io"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Launcher starts the demo from a normal window: `ferry-desktop --demo`
// as a process of its own (its own data directory, its own core), with the
// normal window hidden until that process exits.
type Launcher struct {
	exe    func() (string, error)
	hide   func()
	show   func()
	stderr io.Writer
	log    *slog.Logger

	mu      sync.Mutex
	running *exec.Cmd
}

// NewLauncher returns a Launcher that starts this program (its path with
// symbolic links resolved) in demo mode, calling hide before and show
// after the demo runs, and logs to log; the demo's output goes to stderr.
func NewLauncher(hide, show func(), stderr io.Writer, log *slog.Logger) *Launcher {
	return &Launcher{
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
		hide:   hide,
		show:   show,
		stderr: stderr,
		log:    log,
	}
}

// Start runs the demo and hides this window until it exits; the window
// comes back where it was. Errors:
// bad_input while a demo started here still runs; internal when this
// program's path is unknown or the process does not start.
func (l *Launcher) Start() error {
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
