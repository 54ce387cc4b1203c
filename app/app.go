// Package app is the desktop window's Go side and, with its packages under
// app/internal, the only Go code that imports Wails. It builds the owner
// (owner.go: the core, the long-lived browser, the gateway and the
// in-process service.Service), binds a few thin structs whose exported
// methods become the frontend's API (each a service request of the desktop
// face, its typed result returned), turns every error into an errs
// envelope through one formatter, and forwards backend news to the UI
// through an injected emitter. Backend packages never see Wails. What lives
// beside the bound structs is in app/internal, a package per concern: the
// quick prompt, the tray, the hotkey and notifications (extras), the demo,
// the dialogs (desktop), start at login, one window per data directory,
// the trash, the drag-out, the window's words (wording).
package app

import (
	"context"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"github.com/wailsapp/wails/v2"
	"github.com/wailsapp/wails/v2/pkg/logger"
	"github.com/wailsapp/wails/v2/pkg/options"
	"github.com/wailsapp/wails/v2/pkg/options/assetserver"
	"github.com/wailsapp/wails/v2/pkg/options/linux"
	"github.com/wailsapp/wails/v2/pkg/options/windows"

	"github.com/ferrydesk/ferry/app/internal/autostart"
	"github.com/ferrydesk/ferry/app/internal/demo"
	"github.com/ferrydesk/ferry/app/internal/desktop"
	"github.com/ferrydesk/ferry/app/internal/display"
	"github.com/ferrydesk/ferry/app/internal/instance"
	"github.com/ferrydesk/ferry/app/internal/webview2"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Window geometry: room for the sidebar and a two-column view at the default
// size, and still usable when tiled to half a small laptop screen.
const (
	defaultWidth  = 1100
	defaultHeight = 720
	minWidth      = 760
	minHeight     = 480
)

// Background colours painted before the frontend's first frame; they match
// the frontend's --bg so the window does not flash.
var (
	lightBackground = &options.RGBA{R: 250, G: 250, B: 251, A: 255}
	darkBackground  = &options.RGBA{R: 28, G: 29, B: 32, A: 255}
)

// Run opens the core for the data directory ($FERRY_DATA_DIR or the platform
// default), shows the Ferry window with the frontend in assets (which holds
// frontend/dist) and blocks until the window closes. It returns the process
// exit status: 0 after a normal close, the errs exit code of a failure that
// stops the window from opening (no display, for one) after printing the
// envelope to stderr. A core that fails to open does not stop the window: the
// UI shows why and offers the fix.
func Run(assets fs.FS) int {
	config.KeepFilesPrivate() // the data directory holds prompts, answers and cookies
	return run(assets, os.Getenv, os.Stderr)
}

func run(assets fs.FS, getenv func(string) string, stderr io.Writer) int {
	started := time.Now()
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelInfo}))

	if !generatingBindings {
		if err := display.Check(getenv, display.Dial); err != nil {
			fmt.Fprintln(stderr, errs.From(err).Human())
			return errs.ExitCode(err)
		}
	}

	// Demo mode (app/internal/demo): `--demo` supervises the demo, whose window
	// is this program again with the demo's directory in its environment.
	var dm *demo.Demo
	if demo.Wanted(os.Args[1:]) && !generatingBindings {
		if getenv(demo.EnvDir) == "" {
			return demo.Supervise(log, stderr)
		}
		d, err := demo.Window(getenv)
		if err != nil {
			fmt.Fprintln(stderr, errs.From(err).Human())
			return errs.ExitCode(err)
		}
		dm = d
	}

	sh := newShell(log, started)
	// The tray, the hotkey, notifications and the quick prompt (app/internal/extras).
	ex := newExtras(sh, log, windowIcon(assets), getenv)
	ex.StartHidden = autostart.StartsHidden(os.Args[1:]) && dm == nil
	var dataDir string
	if p, err := sh.paths(); err == nil {
		dataDir = p.DataDir
	}
	if dm == nil && !generatingBindings && dataDir != "" {
		// One window per data directory (app/internal/instance): a second start
		// brings the first forward and ends here.
		first, release, err := instance.System().Claim(dataDir, ex.StartHidden, func() { ex.ShowRun("") })
		if err != nil {
			log.Warn("single instance", "code", errs.CodeOf(err), "err", err)
		} else if !first {
			log.Info("Ferry already runs for this data directory: its window was asked to come forward", "dir", dataDir)
			return 0
		} else {
			defer release()
		}
	}
	var winOpts *windows.Options
	if !generatingBindings {
		// The platform's own window needs (app/internal/webview2): on
		// Windows the WebView2 Runtime and its profile folder.
		var err error
		if winOpts, err = webview2.Prepare(dataDir); err != nil {
			fmt.Fprintln(stderr, errs.From(err).Human())
			return errs.ExitCode(err)
		}
		sh.openAsync(context.Background())
	}
	title := "Ferry"
	if dm != nil {
		ex.WithoutSystemHooks()
		title = "Ferry (demo)"
	}
	// The clipboard and the dialogs are the window's (app/internal/desktop).
	desk := desktop.Runtime{Window: sh.windowContext}
	// Wails turns SIGTERM and SIGINT into a normal close (OnShutdown runs),
	// so a session manager's `kill` exits 0 with the store closed.
	opts := &options.App{
		Title:            title,
		StartHidden:      ex.StartHidden,
		Width:            defaultWidth,
		Height:           defaultHeight,
		MinWidth:         minWidth,
		MinHeight:        minHeight,
		BackgroundColour: sh.backgroundColour(),
		AssetServer:      &assetserver.Options{Assets: assets},
		OnStartup:        func(ctx context.Context) { sh.startup(ctx); startExtras(ctx, ex) },
		OnShutdown:       func(ctx context.Context) { ex.Stop(); sh.shutdown(ctx) },
		Bind: []any{&System{sh: sh, demo: dm, launch: newDemoLauncher(sh, log, stderr)}, &Settings{sh: sh, ex: ex}, &Quick{sh: sh, ex: ex}, &Gateway{sh: sh, desk: desktop.WithDevDialogs(desk)},
			&Sessions{sh: sh, desk: desktop.WithDevDialogs(desk)}, &Artifacts{sh: sh, desk: desktop.WithDevDialogs(desk)},
			&Tabs{sh: sh}, &Runs{sh: sh}, &Welcome{sh: sh},
			&Attachments{sh: sh, pick: desktop.WithDevPicker(desk)}},
		ErrorFormatter: formatError,
		LogLevel:       logger.WARNING,
		Linux: &linux.Options{
			ProgramName: "ferry",
			Icon:        windowIcon(assets),
			// With accelerated compositing WebKitGTK paints an empty window
			// on Xvfb and on some GPU drivers (measured here: OnDemand gave
			// a blank window under Xvfb). The shell is light enough for
			// software rendering everywhere.
			WebviewGpuPolicy: linux.WebviewGpuPolicyNever,
		},
		// Files dropped on the window come to the frontend as their paths
		// (runtime OnFileDrop); Compose and the quick prompt attach them.
		DragAndDrop: &options.DragAndDrop{EnableFileDrop: true},
	}
	opts.Windows = winOpts
	err := wails.Run(opts)
	sh.closeCore() // normally done by OnShutdown; a no-op then
	if err != nil {
		env := errs.Wrap(err, errs.Internal, "run the window: %v", err)
		fmt.Fprintln(stderr, env.Human())
		return errs.ExitCode(env)
	}
	return 0
}

// windowIcon reads the icon the frontend build ships; a missing icon is not
// worth failing over (GTK shows a generic one).
func windowIcon(assets fs.FS) []byte {
	b, err := fs.ReadFile(assets, "frontend/dist/ferry.png")
	if err != nil {
		return nil
	}
	return b
}
