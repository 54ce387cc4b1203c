//go:build gui

package guitest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestBroadcastNotifications: a broadcast to three sites, sent while the
// window does not have the focus, ends in one desktop notification for the
// broadcast, with a line per site under its display name; the same
// broadcast while the window has the focus ends in none (issue 19, point
// 10). The focus reaches the app as the real window reports it: through the
// frontend's focus and blur listeners.
func TestBroadcastNotifications(t *testing.T) {
	requireDisplay(t)
	requireFrontendBuilt(t)
	notes := startNotificationServer(t)
	bin := buildApp(t, devTags)
	b := launchBrowser(t)
	srv := sim.New()
	if err := srv.Start(context.Background(), "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dir := t.TempDir()
	writeBrowserSettings(t, dir, srv)
	app := startDevApp(t, bin, dir)
	page := openShell(t, b, app.url)

	setFocus := func(on bool) {
		page.MustEval(`(on) => {
			document.hasFocus = () => on;
			window.dispatchEvent(new Event(on ? 'focus' : 'blur'));
		}`, on)
	}
	// broadcast sends one prompt to three sites and waits until all of
	// its runs ended (want is how many runs the history then holds).
	broadcast := func(prompt string, want int) {
		t.Helper()
		page.MustEval(`(p) => window.go.app.Runs.Broadcast({prompt: p, sites: ['chatgpt', 'claude', 'gemini'], newChat: true})`, prompt)
		deadline := time.Now().Add(90 * time.Second)
		for {
			res := evalJSON(t, page, `() => window.go.app.Sessions.List('', '', '', 20)`)
			items, _ := res["items"].([]any)
			ended := 0
			for _, it := range items {
				switch str(it.(map[string]any)["session"].(map[string]any)["state"]) {
				case "done", "failed", "cancelled":
					ended++
				}
			}
			if ended >= want {
				return
			}
			if time.Now().After(deadline) {
				t.Fatalf("%d of %d runs ended: %v", ended, want, items)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}

	t.Run("away from the window: one notification for the broadcast", func(t *testing.T) {
		setFocus(false)
		broadcast("name three river ferries", 3)
		n := notes.waitShown(t, "Broadcast finished", 30*time.Second)
		time.Sleep(2 * time.Second) // a notice per site would have come by now
		if got := notes.shown(); len(got) != 1 {
			t.Fatalf("%d notifications, want one for the broadcast: %+v", len(got), got)
		}
		if n.Summary != "Broadcast finished · 3 answers" {
			t.Errorf("summary %q, want the broadcast's", n.Summary)
		}
		lines := strings.Split(n.Body, "\n")
		if len(lines) != 3 || !strings.HasPrefix(lines[0], "ChatGPT: ") || !strings.HasPrefix(lines[1], "Claude: ") || !strings.HasPrefix(lines[2], "Gemini: ") {
			t.Errorf("body %q, want a line per site, by its name, in the broadcast's order", n.Body)
		}
	})

	t.Run("in front: none", func(t *testing.T) {
		setFocus(true)
		broadcast("name three lake ferries", 6)
		time.Sleep(3 * time.Second)
		if got := notes.shown(); len(got) != 1 {
			t.Fatalf("%d notifications, want none more while the window has the focus: %+v", len(got), got)
		}
	})
	app.stop(t)
}
