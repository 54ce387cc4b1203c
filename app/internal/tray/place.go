package tray

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/godbus/dbus/v5"

	"github.com/ferrydesk/ferry/app/internal/sessionbus"
)

// Whether a tray shows Ferry's icon is the desktop's to say: fyne's tray
// exports its StatusNotifierItem on the session bus either way, and where
// no panel hosts such items (a bare X session, Xvfb, GNOME without the
// AppIndicator extension) it only logs "failed to register". Ferry asks
// the bus instead, so that Settings and a hidden start never count on a
// tray nobody shows.

const (
	// watcherName is the StatusNotifierWatcher a tray host runs.
	watcherName = "org.kde.StatusNotifierWatcher"
	watcherPath = "/StatusNotifierWatcher"
	// hostAskTimeout bounds one question to the bus.
	hostAskTimeout = 2 * time.Second
)

// Place is where the session shows tray icons: the freedesktop tray (a
// StatusNotifierWatcher on the session bus) or Windows' notification area.
type Place interface {
	// Usable says why no tray icon can start in the session whose bus is
	// at bus ("" for none); nil means start it.
	Usable(bus string) error
	// Shown reports whether the desktop shows the icon now.
	Shown(bus string) bool
}

// sniTray is Place through the session bus: fyne's tray needs a bus
// that answers (it crashes at shutdown on a dead one), and a
// StatusNotifierWatcher with a host to be seen.
type sniTray struct{}

func (sniTray) Usable(bus string) error {
	switch {
	case bus == "":
		return errors.New("no session bus")
	case !sessionbus.Answers(bus):
		return fmt.Errorf("the session bus at %s does not answer", bus)
	}
	return nil
}

func (sniTray) Shown(bus string) bool { return statusNotifierHost(bus) }

var _ Place = sniTray{}

// statusNotifierHost reports whether the session bus at address has a tray
// that shows status icons: a StatusNotifierWatcher owns its name and does
// not say that no host registered with it.
func statusNotifierHost(address string) bool {
	if address == "" {
		return false
	}
	conn, err := sessionbus.Dial(address)
	if err != nil {
		return false
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hostAskTimeout)
	defer cancel()
	var owned bool
	if err := conn.BusObject().CallWithContext(ctx, "org.freedesktop.DBus.NameHasOwner", 0, watcherName).Store(&owned); err != nil || !owned {
		return false
	}
	var registered dbus.Variant
	err = conn.Object(watcherName, watcherPath).CallWithContext(ctx, "org.freedesktop.DBus.Properties.Get", 0,
		watcherName, "IsStatusNotifierHostRegistered").Store(&registered)
	if err != nil {
		return true // a watcher that does not say: its presence is the answer
	}
	on, ok := registered.Value().(bool)
	return !ok || on
}
