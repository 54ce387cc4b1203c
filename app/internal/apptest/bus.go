// Package apptest holds what the desktop app's tests share: a D-Bus session
// bus of their own (a private dbus-daemon, so nothing reaches the
// developer's session) with a fake notification server on it, and whether
// a process is alive. Only tests import it.
package apptest

import (
	"bufio"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/godbus/dbus/v5"

	"github.com/ferrydesk/ferry/app/internal/sessionbus"
)

// The freedesktop notification service (Desktop Notifications
// Specification 1.2) that NotificationServer plays.
const (
	notifyName      = "org.freedesktop.Notifications"
	notifyPath      = dbus.ObjectPath("/org/freedesktop/Notifications")
	notifyInterface = "org.freedesktop.Notifications"
)

// StartBus runs a private dbus-daemon for the test (the one
// dbus-run-session uses; `make setup` installs dbus-daemon) and returns its
// address. Each test gets its own bus, so nothing reaches the user's session.
func StartBus(t *testing.T) string {
	t.Helper()
	return RunBus(t, "--session")
}

// RunBus starts dbus-daemon with args (which pick its configuration)
// for the length of the test and returns the address it prints.
func RunBus(t *testing.T, args ...string) string {
	t.Helper()
	bin, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Fatalf("dbus-daemon is not installed (apt-get install dbus-daemon, as `make setup` does): %v", err)
	}
	cmd := exec.Command(bin, append(args, "--nofork", "--nopidfile", "--print-address=1")...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start dbus-daemon: %v", err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	if err != nil {
		t.Fatalf("read the bus address: %v", err)
	}
	return strings.TrimSpace(line)
}

// NotificationServer owns org.freedesktop.Notifications on a test bus
// and records the Notify calls it answers.
type NotificationServer struct {
	conn *dbus.Conn
	mu   sync.Mutex
	got  []Notification
	next uint32
	caps []string
}

// Notification is one Notify call the server answered.
type Notification struct {
	ID           uint32
	App, Summary string
	Body         string
	Actions      []string
	Urgency      byte
}

// Notify is org.freedesktop.Notifications.Notify: it records the call and
// answers the next id.
func (f *NotificationServer) Notify(app string, _ uint32, _ string, summary, body string, actions []string,
	hints map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	u, _ := hints["urgency"].Value().(byte)
	f.got = append(f.got, Notification{ID: f.next, App: app, Summary: summary, Body: body, Actions: actions, Urgency: u})
	return f.next, nil
}

// GetCapabilities answers the capabilities SetCaps gave (none at first).
func (f *NotificationServer) GetCapabilities() ([]string, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.caps, nil
}

// SetCaps sets the capabilities the server announces.
func (f *NotificationServer) SetCaps(caps ...string) {
	f.mu.Lock()
	f.caps = caps
	f.mu.Unlock()
}

// Notifications is what the server was asked to show, in order.
func (f *NotificationServer) Notifications() []Notification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Notification(nil), f.got...)
}

// Emit sends the server's signal member (ActionInvoked,
// NotificationClosed) with args.
func (f *NotificationServer) Emit(t *testing.T, member string, args ...any) {
	t.Helper()
	if err := f.conn.Emit(notifyPath, notifyInterface+"."+member, args...); err != nil {
		t.Fatal(err)
	}
}

// StartNotificationServer puts a NotificationServer on the bus at address
// for the length of the test.
func StartNotificationServer(t *testing.T, address string) *NotificationServer {
	t.Helper()
	conn, err := sessionbus.Dial(address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &NotificationServer{conn: conn}
	// Notify and GetCapabilities only: the server's other methods are the
	// test's, not the bus's.
	methods := map[string]any{"Notify": f.Notify, "GetCapabilities": f.GetCapabilities}
	if err := conn.ExportMethodTable(methods, notifyPath, notifyInterface); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(notifyName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v (reply %d)", notifyName, err, reply)
	}
	return f
}
