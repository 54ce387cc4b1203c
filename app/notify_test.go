package app

import (
	"bufio"
	"io"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// startTestBus runs a private dbus-daemon for the test (the one
// dbus-run-session uses; `make setup` installs dbus-daemon) and returns its
// address. Each test gets its own bus, so nothing reaches the user's session.
func startTestBus(t *testing.T) string {
	t.Helper()
	return runTestBus(t, "--session")
}

// runTestBus starts dbus-daemon with args (which pick its configuration)
// for the length of the test and returns the address it prints.
func runTestBus(t *testing.T, args ...string) string {
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

// fakeNotificationServer owns org.freedesktop.Notifications on a test bus
// and records the Notify calls it answers.
type fakeNotificationServer struct {
	conn *dbus.Conn
	mu   sync.Mutex
	got  []fakeNotification
	next uint32
	caps []string
}

type fakeNotification struct {
	ID           uint32
	App, Summary string
	Body         string
	Actions      []string
	Urgency      byte
}

func (f *fakeNotificationServer) Notify(app string, _ uint32, _ string, summary, body string, actions []string,
	hints map[string]dbus.Variant, _ int32) (uint32, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.next++
	u, _ := hints["urgency"].Value().(byte)
	f.got = append(f.got, fakeNotification{ID: f.next, App: app, Summary: summary, Body: body, Actions: actions, Urgency: u})
	return f.next, nil
}

func (f *fakeNotificationServer) GetCapabilities() ([]string, *dbus.Error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.caps, nil
}

func (f *fakeNotificationServer) setCaps(caps ...string) {
	f.mu.Lock()
	f.caps = caps
	f.mu.Unlock()
}

func (f *fakeNotificationServer) notifications() []fakeNotification {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]fakeNotification(nil), f.got...)
}

func (f *fakeNotificationServer) emit(t *testing.T, member string, args ...any) {
	t.Helper()
	if err := f.conn.Emit(notifyPath, notifyInterface+"."+member, args...); err != nil {
		t.Fatal(err)
	}
}

func startFakeNotificationServer(t *testing.T, address string) *fakeNotificationServer {
	t.Helper()
	conn, err := dialSessionBus(address)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	f := &fakeNotificationServer{conn: conn}
	if err := conn.Export(f, notifyPath, notifyInterface); err != nil {
		t.Fatal(err)
	}
	reply, err := conn.RequestName(notifyName, dbus.NameFlagDoNotQueue)
	if err != nil || reply != dbus.RequestNameReplyPrimaryOwner {
		t.Fatalf("own %s: %v (reply %d)", notifyName, err, reply)
	}
	return f
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func TestNotificationsOverARealSessionBus(t *testing.T) {
	addr := startTestBus(t)
	server := startFakeNotificationServer(t, addr)
	clicks := make(chan string, 4)
	n := newNotifier(addr, quietLog(), func(target string) { clicks <- target })
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
		got := server.notifications()
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
		server.setCaps("body", "body-markup")
		defer server.setCaps()
		if err := n.Notify(Notice{Summary: "Approval needed", Body: body}); err != nil {
			t.Fatal(err)
		}
		server.setCaps("body")
		if err := n.Notify(Notice{Summary: "Approval needed", Body: body}); err != nil {
			t.Fatal(err)
		}
		got := server.notifications()
		want := `codex asks to send a prompt: &lt;img src="x"&gt; &amp; &lt;a href="https://evil.example"&gt;bank&lt;/a&gt;`
		if len(got) < 2 || got[len(got)-2].Body != want {
			t.Errorf("with body-markup the server got %+v, want the body %q", got, want)
		}
		if len(got) < 2 || got[len(got)-1].Body != body {
			t.Errorf("without body-markup the server got %+v, want the body as it is", got)
		}
	})
	t.Run("a click on a notification calls back with its target", func(t *testing.T) {
		server.emit(t, "ActionInvoked", uint32(1), "default")
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
		server.emit(t, "NotificationClosed", uint32(2), uint32(2))
		server.emit(t, "ActionInvoked", uint32(2), "default")  // closed already
		server.emit(t, "ActionInvoked", uint32(99), "default") // another program's
		server.emit(t, "ActionInvoked", uint32(1), "default")  // clicked already
		select {
		case target := <-clicks:
			t.Errorf("an unexpected click opened %q", target)
		case <-time.After(300 * time.Millisecond):
		}
	})
}

func TestNotificationsWithoutABus(t *testing.T) {
	t.Run("no address means a no-op notifier", func(t *testing.T) {
		n := newNotifier("", quietLog(), nil)
		if _, ok := n.(nopNotifier); !ok {
			t.Fatalf("got %T", n)
		}
		if err := n.Notify(Notice{Summary: "x"}); err != nil {
			t.Fatal(err)
		}
	})
	t.Run("an address nobody listens on means a no-op notifier", func(t *testing.T) {
		n := newNotifier("unix:path="+t.TempDir()+"/nobus", quietLog(), nil)
		if _, ok := n.(nopNotifier); !ok {
			t.Fatalf("got %T", n)
		}
	})
	t.Run("a bus without a notification server gives an error, not a hang", func(t *testing.T) {
		addr := startTestBus(t)
		n := newNotifier(addr, quietLog(), nil)
		defer n.Close()
		start := time.Now()
		if err := n.Notify(Notice{Summary: "x"}); err == nil {
			t.Fatal("Notify succeeded with no server on the bus")
		}
		if d := time.Since(start); d > notifyTimeout+time.Second {
			t.Errorf("Notify took %s", d)
		}
	})
	t.Run("the session bus address comes from the environment, never an autolaunch", func(t *testing.T) {
		env := map[string]string{}
		get := func(k string) string { return env[k] }
		if a := sessionBusAddress(get); a != "" {
			t.Errorf("empty environment gave %q", a)
		}
		env["XDG_RUNTIME_DIR"] = t.TempDir() // no bus socket inside
		if a := sessionBusAddress(get); a != "" {
			t.Errorf("a runtime dir without a bus gave %q", a)
		}
		env["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/run/user/1/bus"
		if a := sessionBusAddress(get); a != "unix:path=/run/user/1/bus" {
			t.Errorf("got %q", a)
		}
	})
}
