// Package hotkey holds the quick prompt's global hotkey: on X11 a grab
// spoken on the display's socket (x11.go), in a Wayland session the
// desktop's GlobalShortcuts portal first (portal.go), on Windows
// RegisterHotKey (register_windows.go). Keeper keeps the configured
// combination held and says, as a Status, whether it works and why not.
package hotkey

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Status says whether the quick prompt's global hotkey works, for the
// Settings view and the log.
type Status struct {
	// Hotkey is the combination in its canonical form ("Ctrl+Shift+Space").
	Hotkey string `json:"hotkey"`
	// Active is true while Ferry holds the combination.
	Active bool `json:"active"`
	// Problem says why it does not work (no display, a Wayland session
	// without X, the combination taken by another program, an invalid
	// setting); nil when Active.
	Problem *errs.Envelope `json:"problem,omitempty"`
	// Note qualifies an active hotkey: under XWayland the X server sees
	// keys only while one of its own windows has the focus; through the
	// desktop's GlobalShortcuts portal the desktop owns the trigger.
	Note string `json:"note,omitempty"`
}

// How a combination is held.
const (
	hotkeyViaX11    = "x11"
	hotkeyViaPortal = "portal"
)

// heldHotkey is a combination held by a grabber that chooses its backend.
type heldHotkey struct {
	release func()
	via     string // hotkeyViaX11 or hotkeyViaPortal
	// trigger is what the portal reports the desktop bound ("" if unsaid).
	trigger string
	// passedOver says why the portal was not used when via is X11.
	passedOver error
}

// hotkeyChooser is a grabber that picks its backend for the session (the
// portal or X11) and says which one holds the combination.
type hotkeyChooser interface {
	Grabber
	grabHeld(h config.Hotkey, onPress func()) (heldHotkey, error)
}

// Grabber holds a global key combination and calls onPress when it is
// pressed, until release is called. x11Grabber is the real one.
type Grabber interface {
	Grab(h config.Hotkey, onPress func()) (release func(), err error)
}

// nativeGrabber is a grabber that holds keys through the operating system's
// own API (Windows' RegisterHotKey): no display variable decides whether it
// can work, and its errors are envelopes that name their own fix.
type nativeGrabber interface {
	Grabber
	native()
}

// Env is what decides whether a global hotkey can work at all.
type Env struct {
	Display        string // $DISPLAY
	WaylandDisplay string // $WAYLAND_DISPLAY
	SessionBus     string // the session bus address (for the portal); "" for none
}

// Keeper keeps the configured combination grabbed and reports its status.
// It is safe for concurrent use.
type Keeper struct {
	env     Env
	grabber Grabber
	onPress func()

	mu      sync.Mutex
	current string // canonical combination held, "" for none
	release func()
	status  Status
}

// New returns a Keeper that holds combinations with grabber in env and
// calls onPress on each press; it holds none until Apply.
func New(env Env, grabber Grabber, onPress func()) *Keeper {
	return &Keeper{env: env, grabber: grabber, onPress: onPress}
}

// Apply makes spec (quickPrompt.hotkey) the held combination: the old one is
// released, the new one grabbed. It never panics and never fails the
// caller: what went wrong is in the returned status.
func (k *Keeper) Apply(spec string) Status {
	k.mu.Lock()
	defer k.mu.Unlock()
	h, err := config.ParseHotkey(spec)
	if err != nil {
		k.releaseLocked()
		k.status = Status{Hotkey: spec, Problem: errs.Wrap(err, errs.BadInput, "quick-prompt hotkey %v", err).
			WithEvidence("field", "quickPrompt.hotkey").WithHint("write it as modifiers and one key, e.g. Ctrl+Shift+Space")}
		return k.status
	}
	canonical := h.String()
	if canonical == k.current && k.status.Active {
		return k.status
	}
	k.releaseLocked()
	k.status = Status{Hotkey: canonical}
	chooser, chooses := k.grabber.(hotkeyChooser)
	if _, native := k.grabber.(nativeGrabber); !native {
		if p := k.envProblem(canonical, chooses); p != nil {
			k.status.Problem = p
			return k.status
		}
	}
	var held heldHotkey
	if chooses {
		held, err = chooser.grabHeld(h, k.onPress)
	} else {
		held.via = hotkeyViaX11
		held.release, err = k.grabber.Grab(h, k.onPress)
	}
	switch {
	case errors.Is(err, errHotkeyTaken):
		k.status.Problem = errs.Wrap(err, errs.HotkeyTaken, "%s is already used by another program, so it cannot open the quick prompt", canonical).
			WithEvidence("hotkey", canonical).
			WithHint("choose another combination in Settings (for example Ctrl+Alt+Space), or free %s in the other program", canonical)
	case errors.Is(err, errNoKeycode):
		k.status.Problem = errs.Wrap(err, errs.BadInput, "%s cannot be typed on this keyboard layout: %v", canonical, err).
			WithEvidence("hotkey", canonical).WithHint("choose another key for the quick-prompt hotkey in Settings")
	case errs.CodeOf(err) != "":
		// The portal's envelopes name their problem already.
		k.status.Problem = errs.From(err).WithEvidence("hotkey", canonical)
	case err != nil:
		k.status.Problem = errs.Wrap(err, errs.EnvironmentNotReady, "the global hotkey %s could not be set up: %v", canonical, err).
			WithEvidence("hotkey", canonical).WithHint("the tray's Quick prompt… still works; check that the X server at DISPLAY=%s accepts Ferry", k.env.Display)
	default:
		k.current, k.release = canonical, held.release
		k.status.Active = true
		switch {
		case held.via == hotkeyViaPortal:
			k.status.Note = "held through your desktop's GlobalShortcuts portal, which owns the trigger"
			if held.trigger != "" {
				k.status.Note += " (now " + held.trigger + ")"
			}
			k.status.Note += "; to change it, use your desktop's keyboard settings as well as Ferry's"
		case k.env.WaylandDisplay != "":
			k.status.Note = "this is a Wayland session: the X server (XWayland) sees " + canonical +
				" only while an X11 window has the focus; for everywhere, bind a shortcut in your desktop's keyboard settings"
			if held.passedOver != nil {
				reason := held.passedOver.Error()
				if e := errs.From(held.passedOver); e != nil {
					reason = e.Message
				}
				k.status.Note += " (" + reason + ")"
			}
		}
	}
	return k.status
}

// envProblem says why no global hotkey can work in this session. A grabber
// that chooses its backend tries the portal on Wayland first, so only it
// can tell whether a Wayland session without X can hold the hotkey.
func (k *Keeper) envProblem(combo string, chooses bool) *errs.Envelope {
	switch {
	case k.env.Display == "" && k.env.WaylandDisplay != "" && chooses:
		return nil
	case k.env.Display == "" && k.env.WaylandDisplay != "":
		return errs.New(errs.NoDisplay, "the global hotkey %s needs X11, and this Wayland session has no X server (DISPLAY is not set)", combo).
			WithHint("bind a shortcut in your desktop's keyboard settings, or use the tray's Quick prompt…; a session with XWayland sets DISPLAY and the hotkey then works while an X11 window has focus")
	case k.env.Display == "":
		return errs.New(errs.NoDisplay, "the global hotkey %s needs a display, and DISPLAY is not set", combo)
	}
	return nil
}

// Stop releases the combination.
func (k *Keeper) Stop() {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.releaseLocked()
	k.status.Active = false
}

func (k *Keeper) releaseLocked() {
	if k.release != nil {
		k.release()
	}
	k.release, k.current = nil, ""
}

// Status is what the last Apply or Stop left: the combination, whether it
// is held, and why not.
func (k *Keeper) Status() Status {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.status
}

// x11Grabber grabs on the X server at Display.
type x11Grabber struct {
	Display    string
	Xauthority string // "" for $XAUTHORITY or ~/.Xauthority
}

func (g x11Grabber) Grab(h config.Hotkey, onPress func()) (func(), error) {
	sym, ok := x11Keysym(h.Key)
	if !ok {
		return nil, fmt.Errorf("no X keysym for key %q: %w", h.Key, errNoKeycode)
	}
	x, err := dialX11(g.Display, g.Xauthority)
	if err != nil {
		return nil, err
	}
	kc, err := x.keycode(sym)
	if err != nil {
		x.Close()
		return nil, err
	}
	if err := x.grab(kc, x11Mods(h.Mods)); err != nil {
		x.Close()
		return nil, err
	}
	go x.listen(onPress)
	return func() { x.Close() }, nil
}

// x11Mods maps config.Hotkey modifiers to X modifier bits.
func x11Mods(mods []string) uint16 {
	var m uint16
	for _, mod := range mods {
		switch mod {
		case "Ctrl":
			m |= x11ModControl
		case "Shift":
			m |= x11ModShift
		case "Alt":
			m |= x11ModMod1
		case "Super":
			m |= x11ModMod4
		}
	}
	return m
}

// x11Keysym maps a config.Hotkey key to its X keysym (X11 keysymdef.h).
func x11Keysym(key string) (uint32, bool) {
	named := map[string]uint32{
		"Space": 0x0020, "Return": 0xff0d, "Escape": 0xff1b, "Tab": 0xff09, "Delete": 0xffff,
		"Left": 0xff51, "Up": 0xff52, "Right": 0xff53, "Down": 0xff54,
	}
	if s, ok := named[key]; ok {
		return s, true
	}
	if len(key) == 1 {
		c := key[0]
		switch {
		case c >= 'A' && c <= 'Z':
			return uint32(c - 'A' + 'a'), true // the unshifted symbol
		case c >= '0' && c <= '9':
			return uint32(c), true
		}
	}
	if n, ok := strings.CutPrefix(key, "F"); ok {
		var f int
		if _, err := fmt.Sscanf(n, "%d", &f); err == nil && f >= 1 && f <= 20 {
			return 0xffbe + uint32(f-1), true
		}
	}
	return 0, false
}
