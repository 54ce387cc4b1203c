// Package extras holds the parts of the desktop app that live beside the
// window: the quick prompt mode (quick.go), the tray icon, the global
// hotkey and desktop notifications of run ends and approvals (notices.go).
// Each degrades to nothing, with one log line, where the session lacks
// what it needs (a session bus, an X display); none can stop the window
// from working. It reaches the owner through the app's shell (Shell) and
// the window through Window.
package extras

import (
	"context"
	"log/slog"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/app/internal/sessionbus"
	"github.com/ferrydesk/ferry/app/internal/tray"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// Shell is what the extras use of the app's shell.
type Shell struct {
	// WithService runs fn with the owner's Service, or returns why there
	// is none.
	WithService func(fn func(service.Service) error) error
	// Subscribe follows the current owner's events; events is nil when
	// none runs, and owner tells one owner from the next (the core
	// reopens after a settings reset).
	Subscribe func(ctx context.Context, buf int) (owner any, events <-chan event.Event)
	// Emitter is what delivers events to the frontend now.
	Emitter func() Emitter
	// Notes groups a broadcast's run ends into one notice.
	Notes *notify.Groups
	// Caller is who the extras' requests come from (the owner's desktop
	// face).
	Caller service.Caller
}

// Emitter delivers events to the frontend.
type Emitter interface {
	Emit(name string, data ...any)
}

// Size is the main window's size at start and its least size, which the
// quick prompt gives back.
type Size struct{ Width, Height, MinWidth, MinHeight int }

// Extras are the parts of the desktop app that live beside the window: the
// quick prompt mode, the tray icon, the global hotkey and desktop
// notifications.
type Extras struct {
	sh        Shell
	log       *slog.Logger
	icon      []byte
	getenv    func(string) string
	startTray tray.Starter
	grabber   func(hotkey.Env) hotkey.Grabber
	// trayHost reports whether a tray on the session bus at an address
	// shows status icons (tray.SystemPlace's Shown).
	trayHost func(bus string) bool
	// trayUsable says why no tray icon can start in the session whose bus
	// is at an address (tray.SystemPlace's Usable).
	trayUsable func(bus string) error
	// StartHidden: the window started hidden (the login entry's --hidden);
	// without a tray to show it, it shows by itself. Set before Start.
	StartHidden bool

	quick   *quickMode
	hot     *hotkey.Keeper
	notices *runNotices

	mu     sync.Mutex
	ctx    context.Context // the window's, once started
	win    Window
	note   notify.Notifier
	tray   tray.Icon
	bus    string
	cancel context.CancelFunc
	wg     sync.WaitGroup
}

// New returns the extras of the window of size, reaching the owner through
// sh; icon is Ferry's PNG and getenv reads the session's environment.
// Nothing starts before Start.
func New(sh Shell, size Size, log *slog.Logger, icon []byte, getenv func(string) string) *Extras {
	place := tray.SystemPlace()
	e := &Extras{sh: sh, log: log, icon: icon, getenv: getenv, startTray: tray.Start, grabber: hotkey.System,
		trayHost: place.Shown, trayUsable: place.Usable,
		win: nopWindow{size}, note: notify.Nop{}}
	e.quick = &quickMode{win: e.window, emit: sh.Emitter, site: e.defaultSite, canHide: e.hasTray, size: size}
	e.notices = &runNotices{sh: sh, n: e.notifier}
	return e
}

func (e *Extras) window() Window {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.win
}

func (e *Extras) notifier() notify.Notifier {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.note
}

// hasTray reports whether the tray icon is up and a tray on the desktop
// shows it (asked of the session bus each time: a panel may come or go).
func (e *Extras) hasTray() bool {
	e.mu.Lock()
	trayIcon, bus := e.tray, e.bus
	e.mu.Unlock()
	return trayIcon != nil && e.trayHost(bus)
}

func (e *Extras) defaultSite() string {
	if cur, ok := currentSettings(e.sh); ok {
		return cur.QuickPrompt.DefaultSite
	}
	return config.Defaults().QuickPrompt.DefaultSite
}

// Start brings the extras up for win, whose context is ctx (OnStartup,
// after the shell's own startup); the tray's Quit calls quit.
func (e *Extras) Start(ctx context.Context, win Window, quit func()) {
	wctx, cancel := context.WithCancel(context.Background())
	bus := sessionbus.Address(e.getenv)
	note := notify.System(bus, e.icon, e.log, func(target string) { e.quick.showRun(target) })

	var trayIcon tray.Icon
	if err := e.trayUsable(bus); err != nil {
		e.log.Info("tray icon off: " + err.Error())
	} else {
		t, err := e.startTray(e.icon, tray.Actions{
			QuickPrompt: func() { e.quick.open(fromOutside) },
			Show:        func() { e.quick.showRun("") },
			ShowRun:     e.quick.showRun,
			Quit:        quit,
		}, e.log)
		if err != nil {
			e.log.Info("tray icon off", "err", err)
		} else {
			trayIcon = t
		}
	}

	e.mu.Lock()
	e.ctx, e.win, e.note, e.tray, e.bus, e.cancel = ctx, win, note, trayIcon, bus, cancel
	e.mu.Unlock()
	if trayIcon != nil {
		if e.hasTray() {
			e.log.Info("tray icon shown")
		} else {
			e.log.Info("tray icon not shown: no tray on this desktop (nothing on the session bus shows status icons)")
		}
	}
	if e.StartHidden {
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.showWithoutTray(wctx, trayIcon != nil)
		}()
	}

	env := hotkey.Env{Display: e.getenv("DISPLAY"), WaylandDisplay: e.getenv("WAYLAND_DISPLAY"), SessionBus: bus}
	e.hot = hotkey.New(env, e.grabber(env), e.toggleQuick)
	if env.WaylandDisplay != "" {
		// The desktop's shortcut portal may ask the user to confirm the
		// binding: the window's start never waits for that answer.
		e.wg.Add(1)
		go func() {
			defer e.wg.Done()
			e.applyHotkey(e.hotkeySetting())
		}()
	} else {
		e.applyHotkey(e.hotkeySetting())
	}
	e.refreshTray()

	w := &hubWatcher{sh: e.sh, interval: time.Second, onEvent: e.onHubEvent}
	e.wg.Add(1)
	go func() {
		defer e.wg.Done()
		w.run(wctx)
	}()
}

// trayGrace is how long a window started hidden waits for a tray to
// appear (a panel that starts after Ferry at login) before it shows.
const trayGrace = 10 * time.Second

// showWithoutTray shows the window that started hidden when no tray can
// bring it up: at once without a tray icon, else once trayGrace passed with
// no tray on the desktop (a panel that starts after Ferry at login still
// gets its chance). It returns early when ctx ends.
func (e *Extras) showWithoutTray(ctx context.Context, icon bool) {
	if icon {
		deadline := time.Now().Add(trayGrace)
		for !e.hasTray() {
			if time.Now().After(deadline) {
				break
			}
			select {
			case <-ctx.Done():
				return
			case <-time.After(250 * time.Millisecond):
			}
		}
		if e.hasTray() {
			return
		}
	}
	e.log.Info("no tray on this desktop: the window started hidden shows")
	e.quick.showRun("")
}

// OpenQuick turns the window into the quick prompt from inside it (its
// close then returns to the full window).
func (e *Extras) OpenQuick() { e.quick.open(fromWindow) }

// CloseQuick leaves the quick prompt: the full window again, hidden or
// minimised when the hotkey or the tray called it up.
func (e *Extras) CloseQuick() { e.quick.close() }

// GrowQuick makes the quick prompt tall enough for its answer.
func (e *Extras) GrowQuick() { e.quick.grow() }

// ShowRun leaves the quick prompt and shows the full window on run id ("" for
// just the window).
func (e *Extras) ShowRun(id string) { e.quick.showRun(id) }

// toggleQuick is the hotkey: it opens the quick prompt, or closes it when
// it is already open.
func (e *Extras) toggleQuick() {
	if e.quick.isActive() {
		e.quick.close()
		return
	}
	e.quick.open(fromOutside)
}

func (e *Extras) hotkeySetting() string {
	if cur, ok := currentSettings(e.sh); ok {
		return cur.QuickPrompt.Hotkey
	}
	return config.Defaults().QuickPrompt.Hotkey
}

// applyHotkey grabs spec and logs what became of it.
func (e *Extras) applyHotkey(spec string) hotkey.Status {
	st := e.hot.Apply(spec)
	if st.Active {
		e.log.Info("quick-prompt hotkey active", "hotkey", st.Hotkey)
	} else if st.Problem != nil {
		e.log.Warn("quick-prompt hotkey off", "hotkey", st.Hotkey, "code", st.Problem.Code, "why", st.Problem.Message)
	}
	return st
}

// SettingsChanged re-applies what the extras read from the settings; a nil
// Extras, or one not started, has nothing to apply.
func (e *Extras) SettingsChanged(s config.Settings) {
	if e == nil || e.hot == nil {
		return
	}
	e.applyHotkey(s.QuickPrompt.Hotkey)
}

func (e *Extras) onHubEvent(ev event.Event) {
	e.notices.handle(ev)
	if ev.Type == event.RunUpdate {
		e.refreshTray()
	}
}

// refreshTray lists the newest runs in the tray.
func (e *Extras) refreshTray() {
	e.mu.Lock()
	trayIcon := e.tray
	e.mu.Unlock()
	if trayIcon == nil {
		return
	}
	var listed []service.SessionSummary
	err := e.sh.WithService(func(svc service.Service) error {
		var err error
		listed, err = svc.ListSessions(context.Background(), e.sh.Caller, service.SessionQuery{Limit: tray.Recent})
		return err
	})
	if err != nil {
		e.log.Warn("list recent runs for the tray", "code", errs.CodeOf(err), "err", err)
		return
	}
	trayIcon.SetRecent(tray.Entries(listed, wording.SiteName))
}

// Stop takes the extras down (OnShutdown, before the core closes).
func (e *Extras) Stop() {
	e.mu.Lock()
	cancel, trayIcon, note := e.cancel, e.tray, e.note
	e.cancel, e.tray, e.note = nil, nil, notify.Nop{}
	e.mu.Unlock()
	if cancel != nil {
		cancel()
	}
	e.wg.Wait()
	if e.hot != nil {
		e.hot.Stop()
	}
	if trayIcon != nil {
		trayIcon.Stop()
	}
	_ = note.Close()
}

// Status says which of the extras work in this session.
type Status struct {
	Hotkey        hotkey.Status
	Tray          bool // the tray icon is up and a tray on the desktop shows it
	Notifications bool // a notifier could be set up
}

// Status is what works now: the hotkey (with why not), the tray icon and
// notifications.
func (e *Extras) Status() Status {
	st := Status{Tray: e.hasTray()}
	if e.hot != nil {
		st.Hotkey = e.hot.Status()
	}
	_, off := e.notifier().(notify.Nop)
	st.Notifications = !off
	return st
}

// demoHooksErr is why the demo takes no tray icon and no hotkey (a fresh
// envelope each time: the hotkey's status adds evidence to it).
func demoHooksErr() error {
	return errs.New(errs.EnvironmentNotReady, "the demo leaves the tray icon and the quick-prompt hotkey to your own Ferry")
}

// WithoutSystemHooks keeps the demo off what a normal Ferry may hold: the
// tray icon and the global hotkey (notifications and the quick prompt
// through the window stay). Call it before Start.
func (e *Extras) WithoutSystemHooks() {
	e.startTray = func([]byte, tray.Actions, *slog.Logger) (tray.Icon, error) { return nil, demoHooksErr() }
	e.grabber = func(hotkey.Env) hotkey.Grabber { return demoGrabber{} }
}

// demoGrabber refuses every hotkey.
type demoGrabber struct{}

func (demoGrabber) Grab(config.Hotkey, func()) (func(), error) { return nil, demoHooksErr() }
