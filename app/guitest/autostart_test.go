//go:build gui

package guitest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
	"github.com/godbus/dbus/v5/prop"
)

// trayHostStub stands in for a desktop's panel on the session bus: it owns
// org.kde.StatusNotifierWatcher, says a host is registered, and takes the
// items that register (what fyne's tray calls once the watcher is there).
type trayHostStub struct {
	mu    sync.Mutex
	items []string
}

// RegisterStatusNotifierItem is the watcher's method an icon calls.
func (h *trayHostStub) RegisterStatusNotifierItem(sender dbus.Sender, item string) *dbus.Error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.items = append(h.items, string(sender)+item)
	return nil
}

// RegisterStatusNotifierHost is the watcher's method a panel calls.
func (h *trayHostStub) RegisterStatusNotifierHost(string) *dbus.Error { return nil }

// startTrayHost puts a tray on the tests' session bus until the test ends.
func startTrayHost(t *testing.T) *trayHostStub {
	t.Helper()
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	h := &trayHostStub{}
	const iface, path = "org.kde.StatusNotifierWatcher", "/StatusNotifierWatcher"
	if err := conn.Export(h, path, iface); err != nil {
		t.Fatal(err)
	}
	if _, err := prop.Export(conn, path, prop.Map{iface: {
		"IsStatusNotifierHostRegistered": {Value: true},
		"RegisteredStatusNotifierItems":  {Value: []string{}},
		"ProtocolVersion":                {Value: int32(0)},
	}}); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(iface, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v (reply %d)", iface, err, reply)
	}
	return h
}

// visibleFerryWindows lists the mapped windows of class ferry.
func visibleFerryWindows(t *testing.T) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	out, _ := exec.CommandContext(ctx, "xdotool", "search", "--onlyvisible", "--class", "ferry").Output()
	return strings.TrimSpace(string(out))
}

// TestAutostartAndHiddenStart: Settings → "Start Ferry at login (in the
// tray)" writes the XDG autostart entry (ferry-desktop --hidden) and
// removes it; started that way on a desktop with a tray the window stays
// hidden until the tray's "Show Ferry" asks for it.
func TestAutostartAndHiddenStart(t *testing.T) {
	requireDisplay(t)
	requireFrontendBuilt(t)
	startTrayHost(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	dir := t.TempDir()
	entry := filepath.Join(dir, "home", ".config", "autostart", "io.github.ferrydesk.Ferry.desktop")

	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)
	page.MustElement(`[role=tab][data-view=settings]`).MustClick()
	waitTitle(t, page, "Settings")
	toggle := page.MustElement(`[data-testid=autostart]`)
	page.MustWait(`() => !document.querySelector('[data-testid=autostart]').disabled`)
	toggle.MustClick()
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, err := os.ReadFile(entry)
		if err == nil && strings.Contains(string(b), "--hidden") && strings.Contains(string(b), "Exec=") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no autostart entry after turning the setting on: %v %s", err, b)
		}
		time.Sleep(100 * time.Millisecond)
	}
	toggle.MustClick()
	for deadline = time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(entry); os.IsNotExist(err) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the autostart entry is still there after turning the setting off")
		}
	}
	app.stop(t)

	// Started as the entry starts it: no window until the tray asks.
	hidden := startApp(t, bin, isolatedEnv(dir), "--hidden")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := hidden.waitLine(ctx, `msg="tray icon shown"`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // a window that was going to map has by now
	if w := visibleFerryWindows(t); w != "" {
		t.Fatalf("a window of class ferry is visible after a hidden start: %s", w)
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	name := fmt.Sprintf("org.kde.StatusNotifierItem-%d-1", hidden.cmd.Process.Pid)
	show := int32(-1)
	for _, it := range trayMenu(t, conn, name) {
		if it.Label == "Show Ferry" {
			show = it.ID
		}
	}
	if show < 0 {
		t.Fatal("no Show Ferry in the tray menu")
	}
	if call := conn.Object(name, "/StatusNotifierItem/menu").Call("com.canonical.dbusmenu.Event", 0, show, "clicked", dbus.MakeVariant(""), uint32(0)); call.Err != nil {
		t.Fatal(call.Err)
	}
	for deadline = time.Now().Add(15 * time.Second); visibleFerryWindows(t) == ""; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("Show Ferry did not bring the window up")
		}
	}
}

// TestAutostartWithoutTray: on a desktop where no tray shows status icons
// (this session bus has no StatusNotifierWatcher, as under a bare X
// server), Settings says so and offers the start at login with the window
// shown; the entry's hidden start then shows the window, never a Ferry
// nobody can reach.
func TestAutostartWithoutTray(t *testing.T) {
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	dir := t.TempDir()
	entry := filepath.Join(dir, "home", ".config", "autostart", "io.github.ferrydesk.Ferry.desktop")

	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)
	page.MustElement(`[role=tab][data-view=settings]`).MustClick()
	waitTitle(t, page, "Settings")
	note, err := page.Timeout(eventWithin).Element(`[data-testid=autostart-no-tray]`)
	if err != nil {
		t.Fatalf("Settings does not say that this desktop has no tray: %v", err)
	}
	if text := note.MustText(); !strings.Contains(text, "No tray on this desktop") || !strings.Contains(text, "window shown") {
		t.Errorf("the no-tray note reads %q", text)
	}
	if label := page.MustEval(`() => document.querySelector('label[for="' + CSS.escape(document.querySelector('[data-testid=autostart]').id) + '"]')?.textContent ?? ''`).Str(); label == "" || strings.Contains(label, "tray") {
		t.Errorf("the setting still offers a start in the tray: %q", label)
	}
	page.MustWait(`() => !document.querySelector('[data-testid=autostart]').disabled`)
	page.MustElement(`[data-testid=autostart]`).MustClick()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := os.Stat(entry); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no autostart entry after turning the setting on")
		}
	}
	app.stop(t)

	// Started as the entry starts it: with no tray, the window shows.
	started := startApp(t, bin, isolatedEnv(dir), "--hidden")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := started.waitLine(ctx, `msg="no tray on this desktop: the window started hidden shows"`); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(30 * time.Second); visibleFerryWindows(t) == ""; time.Sleep(200 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("a hidden start with no tray left no window to reach Ferry by")
		}
	}
}
