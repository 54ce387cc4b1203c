package app

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/wailsapp/wails/v2/pkg/options"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// desktopCaller is the caller of every request the app makes: the owner's desktop
// face.
var desktopCaller = service.Owner(service.FaceDesktop)

// shell holds what the bound structs share: the Service of the owner (or
// why it is not open), the window's context and the emitter. Bound structs keep a pointer to it in
// an unexported field, so none of this becomes JavaScript API.
type shell struct {
	log     *slog.Logger
	started time.Time
	// mu guards the owner's lifecycle: calls into the Service hold it for
	// reading, reopening (after a settings reset) holds it for writing.
	mu      sync.RWMutex
	own     *owner // what app/owner.go opened; nil when it did not open
	openErr error

	winMu sync.Mutex
	emit  emitter // nopEmitter until the window started

	readyOnce sync.Once

	// notes groups a broadcast's run ends into one notification, and knows
	// whether the window has the focus (app/internal/notify).
	notes notify.Groups

	// calls is the context of the bound calls that wait on the browser or
	// a site (a listing of projects, an upload of sources, a tab opened, the
	// browser connected, the live site check, the doctor): cancelled when
	// the window closes, so that none holds the close back while the core
	// waits for its callers.
	calls    context.Context
	endCalls context.CancelFunc
}

func newShell(log *slog.Logger, started time.Time) *shell {
	calls, end := context.WithCancel(context.Background())
	return &shell{log: log, started: started, emit: nopEmitter{}, calls: calls, endCalls: end}
}

// open opens the core for the desktop role. A failure is kept, not fatal:
// the window still opens and shows it (a malformed settings file must never
// lock the user out of the button that resets it).
func (s *shell) open(ctx context.Context) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.openLocked(ctx)
}

// openAsync takes the lifecycle lock now and opens the core on another
// goroutine, so GTK and WebKit start while the store opens and the hub
// binds (about a third of a second on this machine). Bound calls wait on
// the lock, so none sees a half-open core.
func (s *shell) openAsync(ctx context.Context) {
	s.mu.Lock()
	go func() {
		defer s.mu.Unlock()
		s.openLocked(ctx)
	}()
}

func (s *shell) openLocked(ctx context.Context) {
	o, err := openOwner(ctx, s.log, s.emitter)
	s.own, s.openErr = o, err
	if err != nil {
		env := errs.From(err)
		s.log.Warn("core not open", "code", env.Code, "message", env.Message)
	}
	if o != nil && o.svc != nil {
		wording.RememberSiteNames(ctx, o.svc, desktopCaller)
	}
}

// rememberSiteNames reads the site registry's names again (wording.RememberSiteNames).
func (s *shell) rememberSiteNames() {
	_ = s.withService(func(svc service.Service) error {
		wording.RememberSiteNames(context.Background(), svc, desktopCaller)
		return nil
	})
}

// subscribe follows the current owner's gateway; events is nil when none
// runs.
func (s *shell) subscribe(ctx context.Context, buf int) (*owner, <-chan event.Event) {
	s.mu.RLock()
	own := s.own
	s.mu.RUnlock()
	events, ok := own.subscribe(ctx, buf)
	if !ok {
		return nil, nil
	}
	return own, events
}

// closeCore releases the store; safe to call more than once.
func (s *shell) closeCore() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeLocked()
}

func (s *shell) closeLocked() {
	if s.own == nil {
		return
	}
	s.own.close(s.log)
	s.own = nil
}

// withService runs fn with the owner's Service, or returns why there is
// none: why the core did not open, or that the job runner did not start.
func (s *shell) withService(fn func(service.Service) error) error {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.own == nil {
		return s.notOpen()
	}
	if s.own.svc == nil {
		return errs.New(errs.Internal, "the job runner did not start").
			WithHint("see the app's log for why, then restart Ferry")
	}
	return fn(s.own.svc)
}

func (s *shell) notOpen() error {
	if s.openErr != nil {
		return s.openErr
	}
	return errs.New(errs.Internal, "the core is not open")
}

// paths returns the data directory's paths (the ones the core opens, or
// would open).
func (s *shell) paths() (config.Paths, error) { return config.ResolvePaths("") }

// startup is OnStartup: from now on events reach the window. Wails calls it
// on its own goroutine while the page loads, so bound calls may come first.
func (s *shell) startup(ctx context.Context) {
	s.winMu.Lock()
	defer s.winMu.Unlock()
	s.emit = runtimeEmitter{ctx: ctx}
}

// shutdown is OnShutdown: the window is gone, release the data directory.
func (s *shell) shutdown(context.Context) {
	s.endCalls()
	s.closeCore()
	s.log.Info("shut down")
}

// windowContext is the Wails context of the running window (the emitter
// holds it once OnStartup ran).
func (s *shell) windowContext() (context.Context, error) {
	if re, ok := s.emitter().(runtimeEmitter); ok {
		return re.ctx, nil
	}
	return nil, errs.New(errs.Internal, "the window has not started yet")
}

func (s *shell) emitter() emitter {
	s.winMu.Lock()
	defer s.winMu.Unlock()
	return s.emit
}

// markReady records that the frontend mounted. The line it logs is what the
// GUI smoke test waits for, and the elapsed time is the cold-start figure.
func (s *shell) markReady() {
	s.readyOnce.Do(func() {
		s.log.Info("frontend ready", "after", time.Since(s.started).Round(time.Millisecond).String())
	})
}

// backgroundColour matches the frontend's background for an explicit theme
// choice, so a dark-theme user gets no white flash while the page loads.
// It reads the settings file itself: the core may still be opening.
func (s *shell) backgroundColour() *options.RGBA {
	paths, err := config.ResolvePaths("")
	if err != nil {
		return lightBackground
	}
	if st, err := config.Load(paths.SettingsFile()); err == nil && st.Theme == "dark" {
		return darkBackground
	}
	return lightBackground
}
