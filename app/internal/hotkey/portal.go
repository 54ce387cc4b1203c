package hotkey

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/ferrydesk/ferry/app/internal/sessionbus"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// The xdg-desktop-portal GlobalShortcuts interface (version 1): the way a
// native Wayland client holds a global shortcut, since Wayland gives no
// client the keys of another's window.
const (
	portalName       = "org.freedesktop.portal.Desktop"
	portalPath       = dbus.ObjectPath("/org/freedesktop/portal/desktop")
	portalShortcuts  = "org.freedesktop.portal.GlobalShortcuts"
	portalRequest    = "org.freedesktop.portal.Request"
	portalSession    = "org.freedesktop.portal.Session"
	portalShortcutID = "quick-prompt"
	// portalTimeout bounds each method call and the CreateSession answer:
	// the hotkey is set up while the window starts, which must not hang on
	// a wedged portal.
	portalTimeout = 5 * time.Second
	// portalBindTimeout bounds the BindShortcuts answer, longer because a
	// desktop may ask the user to confirm the shortcut in a dialog.
	portalBindTimeout = 20 * time.Second
)

// Portal responses (org.freedesktop.portal.Request.Response).
const (
	portalResponseOK        = 0
	portalResponseCancelled = 1
)

// errPortalUnavailable marks the portal failures that mean "there is no
// GlobalShortcuts portal here" (nothing owns the name, the interface is
// missing, it never answers), as against a portal that answered no.
var errPortalUnavailable = errors.New("no GlobalShortcuts portal")

const portalHint = "bind a shortcut in your desktop's keyboard settings, or use the tray's Quick prompt…"

// portalGrabber holds the combination through the desktop's GlobalShortcuts
// portal on the session bus at Address, over a private connection.
type portalGrabber struct {
	Address string // session bus address; "" for none
	// Timeout and BindTimeout replace portalTimeout and portalBindTimeout
	// when set (tests).
	Timeout     time.Duration
	BindTimeout time.Duration
	// NoAutoStart stops the bus from starting a portal that is not running
	// (tests; the real session starts it on demand).
	NoAutoStart bool
}

// Grab creates a portal session, binds the quick-prompt shortcut with h as
// its preferred trigger and calls onPress for each Activated signal of that
// shortcut on that session. Every failure is an errs envelope
// (environment_not_ready) wrapping errPortalUnavailable when there is no
// usable portal; the release function closes the session and the
// connection, after which onPress is never called.
func (g portalGrabber) Grab(h config.Hotkey, onPress func()) (func(), error) {
	release, _, err := g.grab(h, onPress)
	return release, err
}

// grab is Grab that also returns the trigger the desktop reports ("" when
// it reports none).
func (g portalGrabber) grab(h config.Hotkey, onPress func()) (func(), string, error) {
	timeout, bindTimeout := g.Timeout, g.BindTimeout
	if timeout <= 0 {
		timeout = portalTimeout
	}
	if bindTimeout <= 0 {
		bindTimeout = portalBindTimeout
	}
	trigger := portalTrigger(h)
	if g.Address == "" {
		return nil, "", portalUnavailable(errors.New("there is no session bus (DBUS_SESSION_BUS_ADDRESS is not set)"))
	}
	conn, err := sessionbus.Dial(g.Address)
	if err != nil {
		return nil, "", portalUnavailable(fmt.Errorf("connect to the session bus: %w", err))
	}
	p := &portalClient{conn: conn, timeout: timeout, waiters: map[dbus.ObjectPath]chan *dbus.Signal{},
		signals: make(chan *dbus.Signal, 16), done: make(chan struct{}), onPress: onPress}
	if g.NoAutoStart {
		p.flags = dbus.FlagNoAutoStart
	}
	if err := p.start(); err != nil {
		conn.Close()
		<-p.done
		return nil, "", portalUnavailable(fmt.Errorf("listen for portal signals: %w", err))
	}
	desc, err := p.setUp(trigger, bindTimeout)
	if err != nil {
		p.close()
		return nil, "", err
	}
	return p.close, desc, nil
}

// portalClient is one GlobalShortcuts session on a private connection.
type portalClient struct {
	conn    *dbus.Conn
	flags   dbus.Flags
	timeout time.Duration
	onPress func()

	mu      sync.Mutex
	waiters map[dbus.ObjectPath]chan *dbus.Signal // request path -> its Response
	session dbus.ObjectPath                       // set once bound

	released  atomic.Bool
	closeOnce sync.Once
	signals   chan *dbus.Signal
	done      chan struct{}
}

func (p *portalClient) start() error {
	p.conn.Signal(p.signals)
	go p.listen()
	for _, o := range [][]dbus.MatchOption{
		{dbus.WithMatchSender(portalName), dbus.WithMatchInterface(portalRequest), dbus.WithMatchMember("Response")},
		{dbus.WithMatchSender(portalName), dbus.WithMatchInterface(portalShortcuts), dbus.WithMatchMember("Activated"), dbus.WithMatchObjectPath(portalPath)},
	} {
		if err := p.conn.AddMatchSignal(o...); err != nil {
			return err
		}
	}
	return nil
}

// setUp creates the session and binds the shortcut; it returns the
// trigger description the portal reports.
func (p *portalClient) setUp(trigger string, bindTimeout time.Duration) (string, error) {
	res, err := p.request("CreateSession", p.timeout, func(token string) []any {
		return []any{map[string]dbus.Variant{
			"handle_token":         dbus.MakeVariant(token),
			"session_handle_token": dbus.MakeVariant(newPortalToken()),
		}}
	})
	if err != nil {
		return "", err
	}
	session, err := portalSessionHandle(res)
	if err != nil {
		return "", portalUnavailable(err)
	}
	p.mu.Lock()
	p.session = session
	p.mu.Unlock()
	res, err = p.request("BindShortcuts", bindTimeout, func(token string) []any {
		shortcuts := []struct {
			ID      string
			Options map[string]dbus.Variant
		}{{portalShortcutID, map[string]dbus.Variant{
			"description":       dbus.MakeVariant("Open Ferry's quick prompt"),
			"preferred_trigger": dbus.MakeVariant(trigger),
		}}}
		return []any{session, shortcuts, "", map[string]dbus.Variant{"handle_token": dbus.MakeVariant(token)}}
	})
	if err != nil {
		return "", err
	}
	return portalTriggerDescription(res), nil
}

// request calls a portal method that answers through a Request object and
// waits for that object's Response. It listens on the predictable request
// path before calling, because the portal may answer before the method
// returns (the race the portal documentation warns about).
func (p *portalClient) request(method string, wait time.Duration, args func(token string) []any) (map[string]dbus.Variant, error) {
	token := newPortalToken()
	predicted := portalRequestPath(p.conn, token)
	answer := make(chan *dbus.Signal, 2)
	p.expect(answer, predicted)
	defer p.forget(predicted)

	ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
	var handle dbus.ObjectPath
	err := p.conn.Object(portalName, portalPath).CallWithContext(ctx, portalShortcuts+"."+method, p.flags, args(token)...).Store(&handle)
	cancel()
	if err != nil {
		return nil, portalCallError(method, err)
	}
	if handle != predicted {
		p.expect(answer, handle)
		defer p.forget(handle)
	}
	select {
	case sig := <-answer:
		return portalResponse(method, sig)
	case <-time.After(wait):
		return nil, portalUnavailable(fmt.Errorf("the portal did not answer %s within %s", method, wait))
	}
}

func (p *portalClient) expect(ch chan *dbus.Signal, path dbus.ObjectPath) {
	p.mu.Lock()
	p.waiters[path] = ch
	p.mu.Unlock()
}

func (p *portalClient) forget(path dbus.ObjectPath) {
	p.mu.Lock()
	delete(p.waiters, path)
	p.mu.Unlock()
}

// listen routes signals until the connection closes: a Response to the
// request waiting for it, an Activated of our shortcut on our session to
// onPress. Another client's requests, sessions and shortcuts are not ours.
func (p *portalClient) listen() {
	defer close(p.done)
	for sig := range p.signals {
		switch sig.Name {
		case portalRequest + ".Response":
			p.mu.Lock()
			ch := p.waiters[sig.Path]
			p.mu.Unlock()
			if ch != nil {
				select {
				case ch <- sig:
				default:
				}
			}
		case portalShortcuts + ".Activated":
			if len(sig.Body) < 2 || sig.Path != portalPath {
				continue
			}
			session, _ := sig.Body[0].(dbus.ObjectPath)
			id, _ := sig.Body[1].(string)
			p.mu.Lock()
			ours := p.session != "" && session == p.session
			p.mu.Unlock()
			if ours && id == portalShortcutID && !p.released.Load() && p.onPress != nil {
				p.onPress()
			}
		}
	}
}

// close ends the session and the connection; after it returns onPress is
// not called again. It is safe to call more than once.
func (p *portalClient) close() {
	p.closeOnce.Do(func() {
		p.released.Store(true)
		p.mu.Lock()
		session := p.session
		p.mu.Unlock()
		if session != "" {
			ctx, cancel := context.WithTimeout(context.Background(), p.timeout)
			// A failed Close leaves nothing to undo: the portal ends the
			// session when our connection goes away too.
			_ = p.conn.Object(portalName, session).CallWithContext(ctx, portalSession+".Close", p.flags).Err
			cancel()
		}
		_ = p.conn.Close() // closes p.signals, which ends listen
		<-p.done
	})
}

// portalRequestPath is where the portal puts the request made with token:
// /org/freedesktop/portal/desktop/request/SENDER/TOKEN, SENDER being our
// unique name without its ':' and with '.' as '_'.
func portalRequestPath(conn *dbus.Conn, token string) dbus.ObjectPath {
	sender := ""
	if names := conn.Names(); len(names) > 0 {
		sender = strings.ReplaceAll(strings.TrimPrefix(names[0], ":"), ".", "_")
	}
	return dbus.ObjectPath(string(portalPath) + "/request/" + sender + "/" + token)
}

// newPortalToken returns a fresh token, valid as an object path element.
func newPortalToken() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b) // crypto/rand.Read never fails (Go 1.24)
	return "ferry_" + hex.EncodeToString(b)
}

// portalTrigger writes h in the XDG shortcuts format: modifiers CTRL,
// SHIFT, ALT, LOGO and an xkb keysym name, joined by '+'
// ("CTRL+SHIFT+space").
func portalTrigger(h config.Hotkey) string {
	mods := map[string]string{"Ctrl": "CTRL", "Shift": "SHIFT", "Alt": "ALT", "Super": "LOGO"}
	parts := make([]string, 0, len(h.Mods)+1)
	for _, m := range h.Mods {
		if x, ok := mods[m]; ok {
			parts = append(parts, x)
		}
	}
	key := h.Key
	switch {
	case key == "Space":
		key = "space"
	case len(key) == 1 && key[0] >= 'A' && key[0] <= 'Z':
		key = strings.ToLower(key) // the unshifted keysym, as for X11
	}
	// Return, Escape, Tab, Delete, the arrows, digits and F1..F20 are
	// their keysym names already.
	return strings.Join(append(parts, key), "+")
}

// portalResponse turns a Request.Response signal into its results, or an
// envelope for a refusal or failure.
func portalResponse(method string, sig *dbus.Signal) (map[string]dbus.Variant, error) {
	if len(sig.Body) < 2 {
		return nil, portalUnavailable(fmt.Errorf("the portal answered %s with a malformed Response", method))
	}
	code, ok1 := sig.Body[0].(uint32)
	results, ok2 := sig.Body[1].(map[string]dbus.Variant)
	if !ok1 || !ok2 {
		return nil, portalUnavailable(fmt.Errorf("the portal answered %s with a malformed Response", method))
	}
	switch code {
	case portalResponseOK:
		return results, nil
	case portalResponseCancelled:
		return nil, errs.New(errs.EnvironmentNotReady, "the desktop's shortcuts portal refused the quick-prompt hotkey (%s was cancelled, perhaps in its dialog)", method).
			WithEvidence("portal_response", "1").WithHint("%s; or allow Ferry's shortcut when the desktop asks, then save Settings again", portalHint)
	default:
		return nil, errs.New(errs.EnvironmentNotReady, "the desktop's shortcuts portal could not bind the quick-prompt hotkey (%s ended with response %d)", method, code).
			WithEvidence("portal_response", fmt.Sprint(code)).WithHint("%s", portalHint)
	}
}

// portalCallError names a failed method call: the errors that mean there is
// no GlobalShortcuts portal are marked errPortalUnavailable.
func portalCallError(method string, err error) error {
	var de dbus.Error
	var dep *dbus.Error
	name := ""
	switch {
	case errors.As(err, &de):
		name = de.Name
	case errors.As(err, &dep):
		name = dep.Name
	}
	switch name {
	case "org.freedesktop.DBus.Error.ServiceUnknown", "org.freedesktop.DBus.Error.NameHasNoOwner":
		return portalUnavailable(fmt.Errorf("nothing on the session bus owns %s", portalName))
	case "org.freedesktop.DBus.Error.UnknownMethod", "org.freedesktop.DBus.Error.UnknownInterface",
		"org.freedesktop.DBus.Error.UnknownObject":
		return portalUnavailable(fmt.Errorf("the desktop portal has no %s interface (too old, or the desktop does not offer it)", portalShortcuts))
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return portalUnavailable(fmt.Errorf("the portal did not answer %s within %s", method, portalTimeout))
	}
	return portalUnavailable(fmt.Errorf("call %s: %w", method, err))
}

// portalUnavailable is the envelope for "no usable GlobalShortcuts portal".
func portalUnavailable(cause error) error {
	return errs.Wrap(errors.Join(errPortalUnavailable, cause), errs.EnvironmentNotReady,
		"the desktop's GlobalShortcuts portal is not available: %v", cause).WithHint("%s", portalHint)
}

func portalSessionHandle(res map[string]dbus.Variant) (dbus.ObjectPath, error) {
	v, ok := res["session_handle"]
	if !ok {
		return "", errors.New("the portal created a session without a session_handle")
	}
	switch s := v.Value().(type) {
	case dbus.ObjectPath:
		return s, nil
	case string: // the specification's first version typed it as a string
		return dbus.ObjectPath(s), nil
	}
	return "", fmt.Errorf("the portal's session_handle is a %s", v.Signature())
}

// portalTriggerDescription is the trigger the desktop reports for our
// shortcut in BindShortcuts' results, "" when it reports none.
func portalTriggerDescription(res map[string]dbus.Variant) string {
	v, ok := res["shortcuts"]
	if !ok {
		return ""
	}
	var list []struct {
		ID      string
		Options map[string]dbus.Variant
	}
	if err := dbus.Store([]any{v.Value()}, &list); err != nil {
		return ""
	}
	for _, s := range list {
		if s.ID != portalShortcutID {
			continue
		}
		if d, ok := s.Options["trigger_description"].Value().(string); ok {
			return d
		}
	}
	return ""
}

// waylandGrabber is the hotkey backend of a Wayland session: the desktop's
// GlobalShortcuts portal, else X11 through XWayland when DISPLAY is set.
type waylandGrabber struct {
	portal portalGrabber
	x11    Grabber // nil without DISPLAY
}

func (g waylandGrabber) Grab(h config.Hotkey, onPress func()) (func(), error) {
	held, err := g.grabHeld(h, onPress)
	return held.release, err
}

// grabHeld tries the portal, then X11. Without X11 a missing portal is the
// no_display envelope; a portal that refused is its own envelope.
func (g waylandGrabber) grabHeld(h config.Hotkey, onPress func()) (heldHotkey, error) {
	release, trigger, perr := g.portal.grab(h, onPress)
	if perr == nil {
		return heldHotkey{release: release, via: hotkeyViaPortal, trigger: trigger}, nil
	}
	if g.x11 != nil {
		release, err := g.x11.Grab(h, onPress)
		if err != nil {
			return heldHotkey{}, err
		}
		return heldHotkey{release: release, via: hotkeyViaX11, passedOver: perr}, nil
	}
	if !errors.Is(perr, errPortalUnavailable) {
		return heldHotkey{}, perr
	}
	combo := h.String()
	reason := perr.Error()
	if env := errs.From(perr); env != nil {
		reason = env.Message
	}
	return heldHotkey{}, errs.Wrap(perr, errs.NoDisplay,
		"the global hotkey %s needs the desktop's GlobalShortcuts portal or X11, and this Wayland session has neither (%s; DISPLAY is not set)", combo, reason).
		WithEvidence("hotkey", combo).
		WithHint("bind a shortcut in your desktop's keyboard settings, or use the tray's Quick prompt…; a desktop with the GlobalShortcuts portal (xdg-desktop-portal 1.18+ with a backend that offers it), or a session with XWayland, lets Ferry hold the hotkey itself")
}

// chooseGrabber picks the hotkey backend for env: X11 alone in an X11
// session (as before the portal), the portal first in a Wayland one.
func chooseGrabber(env Env) Grabber {
	if env.WaylandDisplay == "" {
		return x11Grabber{Display: env.Display}
	}
	g := waylandGrabber{portal: portalGrabber{Address: env.SessionBus}}
	if env.Display != "" {
		g.x11 = x11Grabber{Display: env.Display}
	}
	return g
}
