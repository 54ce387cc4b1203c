package notify

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
)

func TestNotificationsOverARealSessionBus(t *testing.T) {
	addr := apptest.StartBus(t)
	server := apptest.StartNotificationServer(t, addr)
	clicks := make(chan string, 4)
	n := newNotifier(addr, apptest.QuietLog(), func(target string) { clicks <- target })
	if _, ok := n.(*dbusNotifier); !ok {
		t.Fatalf("newNotifier gave %T on a live bus", n)
	}
	t.Cleanup(func() { n.Close() })

	t.Run("a notice reaches the server with its text, urgency and an Open action", func(t *testing.T) {
		if err := n.Notify(Notice{Summary: "Answer ready", Body: "chatgpt: a haiku", Target: "run-1"}); err != nil {
			t.Fatal(err)
		}
		if err := n.Notify(Notice{Summary: "Approval needed", Body: "agent wants to ask claude", Urgent: true}); err != nil {
			t.Fatal(err)
		}
		got := server.Notifications()
		if len(got) != 2 {
			t.Fatalf("server saw %d notifications", len(got))
		}
		if got[0].App != "Ferry" || got[0].Summary != "Answer ready" || got[0].Body != "chatgpt: a haiku" || got[0].Urgency != 1 {
			t.Errorf("first notification %+v", got[0])
		}
		if len(got[0].Actions) != 2 || got[0].Actions[0] != "default" {
			t.Errorf("actions %q, want the default action first", got[0].Actions)
		}
		if got[1].Urgency != 2 {
			t.Errorf("an urgent notice has urgency %d, want 2 (critical)", got[1].Urgency)
		}
	})
	t.Run("a server that reads markup gets an agent's or a site's markup as text", func(t *testing.T) {
		body := `codex asks to send a prompt: <img src="x"> & <a href="https://evil.example">bank</a>`
		server.SetCaps("body", "body-markup")
		defer server.SetCaps()
		if err := n.Notify(Notice{Summary: "Approval needed", Body: body}); err != nil {
			t.Fatal(err)
		}
		server.SetCaps("body")
		if err := n.Notify(Notice{Summary: "Approval needed", Body: body}); err != nil {
			t.Fatal(err)
		}
		got := server.Notifications()
		want := `codex asks to send a prompt: &lt;img src="x"&gt; &amp; &lt;a href="https://evil.example"&gt;bank&lt;/a&gt;`
		if len(got) < 2 || got[len(got)-2].Body != want {
			t.Errorf("with body-markup the server got %+v, want the body %q", got, want)
		}
		if len(got) < 2 || got[len(got)-1].Body != body {
			t.Errorf("without body-markup the server got %+v, want the body as it is", got)
		}
	})
	t.Run("a click on a notification calls back with its target", func(t *testing.T) {
		server.Emit(t, "ActionInvoked", uint32(1), "default")
		select {
		case target := <-clicks:
			if target != "run-1" {
				t.Errorf("click opened %q, want run-1", target)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no click arrived")
		}
	})
	t.Run("a notification closed without a click, or not ours, calls nothing", func(t *testing.T) {
		server.Emit(t, "NotificationClosed", uint32(2), uint32(2))
		server.Emit(t, "ActionInvoked", uint32(2), "default")  // closed already
		server.Emit(t, "ActionInvoked", uint32(99), "default") // another program's
		server.Emit(t, "ActionInvoked", uint32(1), "default")  // clicked already
		select {
		case target := <-clicks:
			t.Errorf("an unexpected click opened %q", target)
		case <-time.After(300 * time.Millisecond):
		}
	})
}

func TestNotificationsWithoutABus(t *testing.T) {
	t.Run("no address means a no-op notifier", func(t *testing.T) {
		n := newNotifier("", apptest.QuietLog(), nil)
		if _, ok := n.(Nop); !ok {
			t.Fatalf("got %T", n)
		}
		if err := n.Notify(Notice{Summary: "x"}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("an address nobody listens on means a no-op notifier", func(t *testing.T) {
		n := newNotifier("unix:path="+t.TempDir()+"/nobus", apptest.QuietLog(), nil)
		if _, ok := n.(Nop); !ok {
			t.Fatalf("got %T", n)
		}
	})
	t.Run("a bus without a notification server gives an error, not a hang", func(t *testing.T) {
		addr := apptest.StartBus(t)
		n := newNotifier(addr, apptest.QuietLog(), nil)
		defer n.Close()
		start := time.Now()
		if err := n.Notify(Notice{Summary: "x"}); err == nil {
			t.Fatal("Notify succeeded with no server on the bus")
		}
		if d := time.Since(start); d > notifyTimeout+time.Second {
			t.Errorf("Notify took %s", d)
		}
	})
}
