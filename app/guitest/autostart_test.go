//go:build gui

package guitest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

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
// removes it; started that way the window stays hidden until the tray's
// "Show Ferry" asks for it.
func TestAutostartAndHiddenStart(t *testing.T) {
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
