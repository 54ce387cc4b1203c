package hotkey

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/app/internal/sessionbus"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// portalTestBusConfig is a session bus without service directories, so
// that the installed xdg-desktop-portal is never started on it: the only
// portal on a test bus is the fake the test puts there.
const portalTestBusConfig = `<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path=SOCKET</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
`

// startPortalTestBus runs a private session bus for one test and returns
// its address; the developer's bus is never used.
func startPortalTestBus(t *testing.T) string {
	t.Helper()
	// A short directory: a unix socket path must fit in 108 bytes.
	dir, err := os.MkdirTemp("", "ferry-bus")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	conf := filepath.Join(dir, "bus.conf")
	if err := os.WriteFile(conf, []byte(strings.Replace(portalTestBusConfig, "SOCKET", filepath.Join(dir, "bus"), 1)), 0o600); err != nil {
		t.Fatal(err)
	}
	return apptest.RunBus(t, "--config-file="+conf)
}

type fakeShortcut struct {
	ID      string
	Options map[string]dbus.Variant
}

// fakePortal owns org.freedesktop.portal.Desktop on a test bus and answers
// GlobalShortcuts calls the way xdg-desktop-portal does: a Request object
// per call, whose Response signal carries the answer.
type fakePortal struct {
	conn *dbus.Conn

	mu sync.Mutex
	// bindResponse is the Response code BindShortcuts answers (0, 1, 2);
	// silent makes the portal never answer; ownPath makes it put requests
	// on a path of its own choosing and answer after the method returns.
	bindResponse uint32
	silent       bool
	ownPath      bool
	sessions     []dbus.ObjectPath
	bound        []fakeShortcut
	boundSession dbus.ObjectPath
	closed       []dbus.ObjectPath
	requests     int
}

// startFakePortal puts a fake portal on the bus at addr; configure, if
// given, sets its behaviour first.
func startFakePortal(t *testing.T, addr string, configure ...func(*fakePortal)) *fakePortal {
	t.Helper()
	conn, err := sessionbus.Dial(addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &fakePortal{conn: conn}
	f.mu.Lock()
	for _, c := range configure {
		c(f)
	}
	f.mu.Unlock()
	if err := conn.Export(f, portalPath, portalShortcuts); err != nil {
		t.Fatal(err)
	}
	if reply, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v (reply %v)", portalName, err, reply)
	}
	return f
}

// answer emits the Response of the request with token from sender: before
// the method returns on the predictable path (the race a client must
// survive), or after it on a path of the portal's own choosing.
func (f *fakePortal) answer(sender dbus.Sender, token string, code uint32, results map[string]dbus.Variant) dbus.ObjectPath {
	f.mu.Lock()
	f.requests++
	n, silent, own := f.requests, f.silent, f.ownPath
	f.mu.Unlock()
	path := dbus.ObjectPath(string(portalPath) + "/request/" + strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + token)
	if own {
		path = dbus.ObjectPath(string(portalPath) + "/request/elsewhere/r" + string(rune('a'+n%26)))
	}
	if silent {
		return path
	}
	emit := func() { _ = f.conn.Emit(path, portalRequest+".Response", code, results) }
	if own {
		go func() { time.Sleep(50 * time.Millisecond); emit() }()
	} else {
		emit()
	}
	return path
}

func (f *fakePortal) CreateSession(sender dbus.Sender, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	token, _ := opts["handle_token"].Value().(string)
	stoken, _ := opts["session_handle_token"].Value().(string)
	session := dbus.ObjectPath(string(portalPath) + "/session/" + strings.ReplaceAll(strings.TrimPrefix(string(sender), ":"), ".", "_") + "/" + stoken)
	if err := f.conn.Export(&fakeSession{f: f, path: session}, session, portalSession); err != nil {
		return "", dbus.MakeFailedError(err)
	}
	f.mu.Lock()
	f.sessions = append(f.sessions, session)
	own := f.ownPath
	f.mu.Unlock()
	var handle any = session
	if own {
		handle = string(session) // the specification's first version typed it as a string
	}
	return f.answer(sender, token, 0, map[string]dbus.Variant{"session_handle": dbus.MakeVariant(handle)}), nil
}

func (f *fakePortal) BindShortcuts(sender dbus.Sender, session dbus.ObjectPath, shortcuts []fakeShortcut, parent string, opts map[string]dbus.Variant) (dbus.ObjectPath, *dbus.Error) {
	token, _ := opts["handle_token"].Value().(string)
	f.mu.Lock()
	f.bound, f.boundSession = shortcuts, session
	code := f.bindResponse
	f.mu.Unlock()
	results := map[string]dbus.Variant{}
	if code == 0 {
		results["shortcuts"] = dbus.MakeVariant([]fakeShortcut{{ID: portalShortcutID,
			Options: map[string]dbus.Variant{"trigger_description": dbus.MakeVariant("Ctrl+Shift+Space")}}})
	}
	return f.answer(sender, token, code, results), nil
}

// activate emits the Activated signal a key press on the desktop causes.
func (f *fakePortal) activate(t *testing.T, session dbus.ObjectPath, id string) {
	t.Helper()
	if err := f.conn.Emit(portalPath, portalShortcuts+".Activated", session, id, uint64(time.Now().UnixMilli()), map[string]dbus.Variant{}); err != nil {
		t.Fatal(err)
	}
}

func (f *fakePortal) snapshot() (sessions, closed []dbus.ObjectPath, bound []fakeShortcut, boundSession dbus.ObjectPath) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]dbus.ObjectPath(nil), f.sessions...), append([]dbus.ObjectPath(nil), f.closed...), f.bound, f.boundSession
}

type fakeSession struct {
	f    *fakePortal
	path dbus.ObjectPath
}

func (s *fakeSession) Close() *dbus.Error {
	s.f.mu.Lock()
	s.f.closed = append(s.f.closed, s.path)
	s.f.mu.Unlock()
	return nil
}

func defaultHotkey(t *testing.T) config.Hotkey {
	t.Helper()
	h, err := config.ParseHotkey(config.Defaults().QuickPrompt.Hotkey)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestPortalHotkeyBindsAndCallsBack(t *testing.T) {
	for _, ownPath := range []bool{false, true} {
		name := "a portal that answers before its reply on the predictable path"
		if ownPath {
			name = "a portal that answers on a request path of its own choosing"
		}
		t.Run(name, func(t *testing.T) {
			addr := startPortalTestBus(t)
			fake := startFakePortal(t, addr, func(f *fakePortal) { f.ownPath = ownPath })
			var presses atomic.Int32
			pressed := make(chan struct{}, 8)
			release, trigger, err := portalGrabber{Address: addr, NoAutoStart: true}.grab(defaultHotkey(t), func() {
				presses.Add(1)
				pressed <- struct{}{}
			})
			if err != nil {
				t.Fatalf("bind through the portal: %v", err)
			}
			defer release()
			sessions, _, bound, boundSession := fake.snapshot()

			t.Run("binding asks for the quick-prompt shortcut with the XDG trigger on the new session", func(t *testing.T) {
				if len(sessions) != 1 || boundSession != sessions[0] {
					t.Fatalf("sessions %v, bound on %q", sessions, boundSession)
				}
				if len(bound) != 1 || bound[0].ID != portalShortcutID {
					t.Fatalf("bound %+v", bound)
				}
				if got, _ := bound[0].Options["preferred_trigger"].Value().(string); got != "CTRL+SHIFT+space" {
					t.Errorf("preferred_trigger %q, want CTRL+SHIFT+space", got)
				}
				if d, _ := bound[0].Options["description"].Value().(string); !strings.Contains(d, "quick prompt") {
					t.Errorf("description %q", d)
				}
				if trigger != "Ctrl+Shift+Space" {
					t.Errorf("reported trigger %q", trigger)
				}
			})
			session := sessions[0]
			signals := []struct {
				name    string
				session dbus.ObjectPath
				id      string
				presses bool
			}{
				{"another shortcut id on our session does not press", session, "something-else", false},
				{"our shortcut id on another session does not press", session + "x", portalShortcutID, false},
				{"our shortcut on our session presses exactly once", session, portalShortcutID, true},
			}
			for _, s := range signals {
				t.Run(s.name, func(t *testing.T) {
					before := presses.Load()
					fake.activate(t, s.session, s.id)
					if s.presses {
						select {
						case <-pressed:
						case <-time.After(3 * time.Second):
							t.Fatal("the press never arrived")
						}
					}
					time.Sleep(200 * time.Millisecond)
					want := before
					if s.presses {
						want++
					}
					if got := presses.Load(); got != want {
						t.Fatalf("%d presses, want %d", got, want)
					}
				})
			}
			t.Run("release closes the session and no press follows", func(t *testing.T) {
				release()
				_, closed, _, _ := fake.snapshot()
				if len(closed) != 1 || closed[0] != session {
					t.Fatalf("closed sessions %v, want [%s]", closed, session)
				}
				before := presses.Load()
				fake.activate(t, session, portalShortcutID)
				time.Sleep(200 * time.Millisecond)
				if presses.Load() != before {
					t.Fatal("a press arrived after release")
				}
				release() // a second release is harmless
			})
		})
	}
}

func TestPortalHotkeyFailuresAreTypedErrors(t *testing.T) {
	cases := []struct {
		name        string
		setUp       func(t *testing.T, addr string) *fakePortal
		unavailable bool   // wraps errPortalUnavailable
		says        string // in the message
		closes      bool   // the half-made session is closed
		waits       bool   // the error comes only when the grabber's timeout ends
	}{
		{name: "a user who refuses the shortcut gets the portal's refusal with a hint", says: "refused", closes: true,
			setUp: func(t *testing.T, addr string) *fakePortal {
				return startFakePortal(t, addr, func(f *fakePortal) { f.bindResponse = 1 })
			}},
		{name: "a portal that fails otherwise says which response it gave", says: "response 2", closes: true,
			setUp: func(t *testing.T, addr string) *fakePortal {
				return startFakePortal(t, addr, func(f *fakePortal) { f.bindResponse = 2 })
			}},
		{name: "a portal that never answers times out", unavailable: true, says: "did not answer CreateSession", waits: true,
			setUp: func(t *testing.T, addr string) *fakePortal {
				return startFakePortal(t, addr, func(f *fakePortal) { f.silent = true })
			}},
		{name: "no portal on the bus is reported quickly", unavailable: true, says: "nothing on the session bus owns",
			setUp: func(*testing.T, string) *fakePortal { return nil }},
		{name: "a portal without the GlobalShortcuts interface is reported quickly", unavailable: true, says: "has no org.freedesktop.portal.GlobalShortcuts",
			setUp: func(t *testing.T, addr string) *fakePortal {
				conn, err := sessionbus.Dial(addr)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { conn.Close() })
				if _, err := conn.RequestName(portalName, dbus.NameFlagDoNotQueue); err != nil {
					t.Fatal(err)
				}
				return nil
			}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			addr := startPortalTestBus(t)
			fake := c.setUp(t, addr)
			// A case that must not wait for the portal gets a timeout far
			// longer than it may take, so that a loaded machine cannot
			// blur the two; the one that waits gets a short one.
			timeout := 20 * time.Second
			if c.waits {
				timeout = time.Second
			}
			start := time.Now()
			release, err := portalGrabber{Address: addr, NoAutoStart: true, Timeout: timeout, BindTimeout: timeout}.
				Grab(defaultHotkey(t), func() { t.Error("pressed") })
			took := time.Since(start)
			if err == nil {
				release()
				t.Fatal("Grab succeeded")
			}
			e := errs.From(err)
			if e.Code != errs.EnvironmentNotReady || !strings.Contains(e.Message, c.says) || !strings.Contains(e.RetryHint, "keyboard settings") {
				t.Fatalf("error %+v, want environment_not_ready saying %q with a hint", e, c.says)
			}
			if errors.Is(err, errPortalUnavailable) != c.unavailable {
				t.Errorf("errPortalUnavailable=%v, want %v", !c.unavailable, c.unavailable)
			}
			if took >= timeout/2 && !c.waits {
				t.Errorf("took %s: it waited on a portal that had already answered (timeout %s)", took, timeout)
			}
			if c.waits && (took < timeout || took > timeout+10*time.Second) {
				t.Errorf("took %s, want the %s timeout", took, timeout)
			}
			if fake != nil && c.closes {
				sessions, closed, _, _ := fake.snapshot()
				if len(sessions) != 1 || len(closed) != 1 {
					t.Errorf("sessions %v, closed %v: the refused session was left open", sessions, closed)
				}
			}
		})
	}
	t.Run("no session bus at all is a typed error", func(t *testing.T) {
		_, err := portalGrabber{}.Grab(defaultHotkey(t), func() {})
		if !errors.Is(err, errPortalUnavailable) || errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Fatalf("error %v", err)
		}
	})
}

func TestHotkeyOnWaylandTriesThePortalFirst(t *testing.T) {
	withPortal := startPortalTestBus(t)
	startFakePortal(t, withPortal)
	refusing := startPortalTestBus(t)
	startFakePortal(t, refusing, func(f *fakePortal) { f.bindResponse = 1 })
	empty := startPortalTestBus(t)
	portal := func(addr string) portalGrabber {
		return portalGrabber{Address: addr, NoAutoStart: true, Timeout: time.Second, BindTimeout: time.Second}
	}
	wayland := Env{WaylandDisplay: "wayland-0"}
	xwayland := Env{Display: ":0", WaylandDisplay: "wayland-0"}
	cases := []struct {
		name    string
		env     Env
		grabber waylandGrabber
		active  bool
		x11Held bool
		note    []string
		code    errs.Code
		says    string
	}{
		{name: "a desktop with the portal holds the hotkey through it and says so", env: wayland,
			grabber: waylandGrabber{portal: portal(withPortal)}, active: true, note: []string{"GlobalShortcuts portal", "Ctrl+Shift+Space"}},
		{name: "the portal wins over XWayland when both are there", env: xwayland,
			grabber: waylandGrabber{portal: portal(withPortal), x11: &fakeGrabber{}}, active: true, note: []string{"GlobalShortcuts portal"}},
		{name: "without a portal XWayland holds it with the focus note and the portal's reason", env: xwayland,
			grabber: waylandGrabber{portal: portal(empty), x11: &fakeGrabber{}}, active: true, x11Held: true, note: []string{"XWayland", "portal is not available"}},
		{name: "a refused portal still falls back to XWayland", env: xwayland,
			grabber: waylandGrabber{portal: portal(refusing), x11: &fakeGrabber{}}, active: true, x11Held: true, note: []string{"XWayland", "refused"}},
		{name: "neither a portal nor X is no_display naming both", env: wayland,
			grabber: waylandGrabber{portal: portal(empty)}, code: errs.NoDisplay, says: "GlobalShortcuts portal or X11"},
		{name: "a refusal without X is the portal's own error", env: wayland,
			grabber: waylandGrabber{portal: portal(refusing)}, code: errs.EnvironmentNotReady, says: "refused"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			k := &Keeper{env: c.env, grabber: c.grabber, onPress: func() {}}
			st := k.Apply("Ctrl+Shift+Space")
			defer k.Stop()
			if st.Active != c.active {
				t.Fatalf("active=%v, want %v (problem %+v)", st.Active, c.active, st.Problem)
			}
			for _, n := range c.note {
				if !strings.Contains(st.Note, n) {
					t.Errorf("note %q does not say %q", st.Note, n)
				}
			}
			if fg, ok := c.grabber.x11.(*fakeGrabber); ok && (len(fg.held) == 1) != c.x11Held {
				t.Errorf("X11 held %v, want held=%v", fg.held, c.x11Held)
			}
			if c.code != "" && (st.Problem == nil || st.Problem.Code != c.code || !strings.Contains(st.Problem.Message, c.says) ||
				!strings.Contains(st.Problem.RetryHint, "keyboard settings")) {
				t.Fatalf("problem %+v, want %s saying %q with a hint", st.Problem, c.code, c.says)
			}
		})
	}
	t.Run("an X11 session uses X11 alone, as before the portal", func(t *testing.T) {
		if g, ok := chooseGrabber(Env{Display: ":0", SessionBus: withPortal}).(x11Grabber); !ok || g.Display != ":0" {
			t.Fatalf("chose %#v", g)
		}
	})
	t.Run("a Wayland session tries the portal on the session bus first", func(t *testing.T) {
		g, ok := chooseGrabber(Env{Display: ":1", WaylandDisplay: "wayland-0", SessionBus: withPortal}).(waylandGrabber)
		if !ok || g.portal.Address != withPortal || g.x11 == nil {
			t.Fatalf("chose %#v", g)
		}
	})
}

func TestPortalTriggersUseTheXDGShortcutFormat(t *testing.T) {
	cases := []struct{ spec, want string }{
		{"Ctrl+Shift+Space", "CTRL+SHIFT+space"},
		{"Ctrl+Alt+K", "CTRL+ALT+k"},
		{"Super+Return", "LOGO+Return"},
		{"Alt+F9", "ALT+F9"},
		{"Ctrl+7", "CTRL+7"},
		{"Ctrl+Shift+Left", "CTRL+SHIFT+Left"},
	}
	for _, c := range cases {
		t.Run(c.spec+" is written as "+c.want, func(t *testing.T) {
			h, err := config.ParseHotkey(c.spec)
			if err != nil {
				t.Fatal(err)
			}
			if got := portalTrigger(h); got != c.want {
				t.Errorf("got %q", got)
			}
		})
	}
}
