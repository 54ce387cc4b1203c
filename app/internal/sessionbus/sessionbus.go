// Package sessionbus finds the desktop session's D-Bus bus, never
// autolaunching one, and dials it on private connections: notifications,
// the tray and the hotkey portal each speak on one of their own.
package sessionbus

import (
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// Address returns the session bus address to use, or "" when
// there is none. It never autolaunches a bus (godbus would start
// dbus-launch when the variable is unset): without a session, notifications
// and the tray are simply off.
func Address(getenv func(string) string) string {
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" {
		return a
	}
	if dir := getenv("XDG_RUNTIME_DIR"); dir != "" {
		sock := filepath.Join(dir, "bus")
		if fi, err := os.Stat(sock); err == nil && fi.Mode()&os.ModeSocket != 0 {
			return "unix:path=" + sock
		}
	}
	return ""
}

// Dial opens a private, authenticated connection to the bus at
// address. Private, because fyne's tray closes the shared SessionBus()
// connection when it stops.
func Dial(address string) (*dbus.Conn, error) {
	conn, err := dbus.Dial(address)
	if err != nil {
		return nil, err
	}
	if err := conn.Auth(nil); err != nil {
		conn.Close()
		return nil, err
	}
	if err := conn.Hello(); err != nil {
		conn.Close()
		return nil, err
	}
	return conn, nil
}

// Answers reports whether a connection to the session bus at address
// completes (fyne's tray would crash at shutdown on a dead address).
func Answers(address string) bool {
	conn, err := Dial(address)
	if err != nil {
		return false
	}
	conn.Close()
	return true
}
