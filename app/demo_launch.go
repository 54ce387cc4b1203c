package app

import (
	"context"
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
	var place windowPlace // where the window was when it hid; hide and show run one after the other
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
				place = placeOf(ctx)
				wruntime.WindowHide(ctx)
			}
		},
		show: func() {
			if ctx, err := desk.windowContext(); err == nil {
				place.showAt(ctx)
			}
		},
		stderr: stderr,
		log:    log,
	}
}

// windowPlace is where a window was on the screen and its size, so that
// a hidden window comes back there: shown again, a window is placed anew
// by the window manager (elsewhere, and centred by some).
type windowPlace struct {
	x, y, width, height int
	maximised           bool
	known               bool
}

// placeOf reads the place of the running window.
func placeOf(ctx context.Context) windowPlace {
	w := runtimeWindow{ctx}
	p := windowPlace{maximised: wruntime.WindowIsMaximised(ctx), known: true}
	p.x, p.y = w.Position()
	p.width, p.height = w.Size()
	return p
}

// showAt shows the window at p: moved there before it maps (the window
// manager's first placement) and after (a manager that placed it anyway),
// at its former size; a maximised window only shows, maximised again.
func (p windowPlace) showAt(ctx context.Context) {
	w := runtimeWindow{ctx}
	if !p.known || p.maximised {
		w.Show()
		return
	}
	w.SetPosition(p.x, p.y)
	w.Show()
	w.SetSize(p.width, p.height)
	w.SetPosition(p.x, p.y)
}

// start runs the demo and hides this window until it exits; the window
// comes back where it was. Errors:
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
