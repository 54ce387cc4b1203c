package app

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/app/internal/tray"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// fakeWindow records what was done to the window, in order.
type fakeWindow struct {
	mu        sync.Mutex
	calls     []string
	w, h      int
	x, y      int
	onTop     bool
	visible   bool
	minimised bool
}

// do records call s and applies change under the lock: the notifier's
// goroutine drives the window too.
func (f *fakeWindow) do(s string, change func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, s)
	change()
}
func (f *fakeWindow) Show()       { f.do("show", func() { f.visible = true }) }
func (f *fakeWindow) Hide()       { f.do("hide", func() { f.visible = false }) }
func (f *fakeWindow) Minimise()   { f.do("minimise", func() { f.minimised = true }) }
func (f *fakeWindow) Unminimise() { f.do("unminimise", func() { f.minimised = false }) }
func (f *fakeWindow) IsMinimised() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.minimised
}

// Center puts the window at the middle of a 1920x1080 screen.
func (f *fakeWindow) Center() {
	f.do("center", func() { f.x, f.y = (1920-f.w)/2, (1080-f.h)/2 })
}
func (f *fakeWindow) Position() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.x, f.y
}
func (f *fakeWindow) SetPosition(x, y int) {
	f.do(fmt.Sprintf("pos=%d,%d", x, y), func() { f.x, f.y = x, y })
}
func (f *fakeWindow) SetAlwaysOnTop(on bool) {
	f.do(fmt.Sprintf("ontop=%v", on), func() { f.onTop = on })
}
func (f *fakeWindow) Size() (int, int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.w, f.h
}
func (f *fakeWindow) SetSize(w, h int) {
	f.do(fmt.Sprintf("size=%dx%d", w, h), func() { f.w, f.h = w, h })
}
func (f *fakeWindow) SetMinSize(w, h int) { f.do(fmt.Sprintf("min=%dx%d", w, h), func() {}) }

func (f *fakeWindow) isVisible() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.visible
}

func (f *fakeWindow) has(s string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, c := range f.calls {
		if c == s {
			return true
		}
	}
	return false
}

func newQuick(tray bool) (*quickMode, *fakeWindow, *recorder) {
	win := &fakeWindow{w: 1300, h: 900, x: 40, y: 30, visible: true}
	rec := &recorder{}
	q := &quickMode{win: func() window { return win }, emit: func() emitter { return rec },
		site: func() string { return "claude" }, canHide: func() bool { return tray }}
	return q, win, rec
}

func TestQuickPromptMode(t *testing.T) {
	t.Run("the window goes back to its own place after the quick prompt, not to the box's", func(t *testing.T) {
		for _, leave := range []string{"close", "showRun"} {
			q, win, _ := newQuick(true)
			q.open(fromWindow)
			if x, y := win.Position(); x == 40 && y == 30 {
				t.Fatalf("the box was not centred: at %d,%d", x, y)
			}
			q.grow()
			if win.h != quickAnswerHeight || win.w != quickWidth {
				t.Fatalf("%s: the box with its answer is %dx%d", leave, win.w, win.h)
			}
			if leave == "close" {
				q.close()
			} else {
				q.showRun("run-1")
			}
			if x, y := win.Position(); x != 40 || y != 30 || win.w != 1300 || win.h != 900 {
				t.Errorf("%s: the window is %dx%d at %d,%d, want 1300x900 at 40,30", leave, win.w, win.h, x, y)
			}
		}
	})
	t.Run("grow does nothing while the quick prompt is not showing", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.grow()
		if win.h != 900 || win.has("center") {
			t.Errorf("the full window was changed: %dx%d, calls %v", win.w, win.h, win.calls)
		}
	})
	t.Run("opening makes the window compact, on top and shown, and tells the frontend", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.open(fromOutside)
		if win.w != quickWidth || win.h != quickHeight || !win.onTop || !win.visible {
			t.Fatalf("window %dx%d onTop=%v visible=%v", win.w, win.h, win.onTop, win.visible)
		}
		if !win.has(fmt.Sprintf("min=%dx%d", quickWidth, quickHeight)) {
			t.Error("the minimum size was not lowered: the window could not shrink")
		}
		if rec.names() != EventQuickOpen {
			t.Errorf("events %q", rec.names())
		}
	})
	t.Run("closing restores the size and minimum, drops on-top, and hides a window that was hidden", func(t *testing.T) {
		q, win, rec := newQuick(true)
		win.minimised = true
		q.open(fromOutside)
		q.close() // a minimised window is hidden afterwards, with the tray to bring it back
		if win.visible {
			t.Fatal("the window that was minimised is up after the quick prompt")
		}
		rec.events = nil
		q.open(fromOutside)
		q.close()
		if win.w != 1300 || win.h != 900 || win.onTop || win.visible {
			t.Fatalf("window %dx%d onTop=%v visible=%v", win.w, win.h, win.onTop, win.visible)
		}
		if !win.has(fmt.Sprintf("min=%dx%d", minWidth, minHeight)) {
			t.Error("the minimum size was not restored")
		}
		if rec.names() != EventQuickOpen+" "+EventQuickClose {
			t.Errorf("events %q", rec.names())
		}
	})
	t.Run("a window that was up stays up after a quick prompt from outside", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromOutside)
		q.close()
		if win.has("hide") || win.has("minimise") || !win.visible || win.w != 1300 {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("without a tray a minimised window is minimised again, never hidden for good", func(t *testing.T) {
		q, win, _ := newQuick(false)
		win.minimised = true
		q.open(fromOutside)
		q.close()
		if win.has("hide") || !win.has("minimise") {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("opened from the window it returns to the full window", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromWindow)
		q.close()
		if win.has("hide") || win.has("minimise") || !win.visible {
			t.Errorf("calls %v", win.calls)
		}
	})
	t.Run("a second open keeps the first saved size", func(t *testing.T) {
		q, win, _ := newQuick(true)
		q.open(fromOutside)
		q.open(fromOutside)
		q.close()
		if win.w != 1300 || win.h != 900 {
			t.Errorf("restored to %dx%d", win.w, win.h)
		}
	})
	t.Run("showing a run leaves the quick prompt and keeps the window up", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.open(fromOutside)
		q.showRun("run-7")
		if q.isActive() || win.onTop || !win.visible || win.w != 1300 {
			t.Errorf("window %dx%d onTop=%v visible=%v active=%v", win.w, win.h, win.onTop, win.visible, q.isActive())
		}
		if rec.names() != EventQuickOpen+" "+EventQuickClose+" "+EventShowRun {
			t.Errorf("events %q", rec.names())
		}
	})
	t.Run("closing when not open does nothing", func(t *testing.T) {
		q, win, rec := newQuick(true)
		q.close()
		if len(win.calls) != 0 || rec.names() != "" {
			t.Errorf("calls %v events %q", win.calls, rec.names())
		}
	})
}

// busyWindow is a window whose main loop is busy until a moment: a resize
// lands only after it, and a new minimum size cancels a resize that has not
// landed yet, as GTK does.
type busyWindow struct {
	*fakeWindow
	busyUntil    time.Time
	pendW, pendH int
}

func (b *busyWindow) SetSize(w, h int) { b.mu.Lock(); b.pendW, b.pendH = w, h; b.mu.Unlock() }
func (b *busyWindow) SetMinSize(w, h int) {
	b.mu.Lock()
	b.pendW, b.pendH = 0, 0
	b.mu.Unlock()
	b.fakeWindow.SetMinSize(w, h)
}
func (b *busyWindow) Size() (int, int) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.pendW != 0 && time.Now().After(b.busyUntil) {
		b.w, b.h, b.pendW, b.pendH = b.pendW, b.pendH, 0, 0
	}
	return b.w, b.h
}

func TestQuickCloseRestoresTheSizeOnABusyMainLoop(t *testing.T) {
	q, fake, _ := newQuick(true)
	q.open(fromWindow)
	busy := &busyWindow{fakeWindow: fake, busyUntil: time.Now().Add(resizeSettle + 100*time.Millisecond)}
	q.win = func() window { return busy }
	q.close()
	if w, h := busy.Size(); w != 1300 || h != 900 {
		t.Fatalf("after Esc the window is %dx%d, want 1300x900 again", w, h)
	}
}

func TestNoticesForHubEvents(t *testing.T) {
	sessions := map[string]*job.Session{
		"done":  {ID: "done", Site: "chatgpt", State: job.StateDone, Answer: "Boats cross\n the   water"},
		"fail":  {ID: "fail", Site: "claude", State: job.StateFailed, Error: errs.New(errs.ComposerNotFound, "no composer on the page")},
		"check": {ID: "check", Site: "chatgpt", State: job.StateFailed, Error: errs.New(errs.CloudflareChallenge, "a Cloudflare check blocks the page")},
	}
	lookup := func(_ context.Context, id string) (*service.Run, error) {
		if s, ok := sessions[id]; ok {
			return s, nil
		}
		return nil, errs.New(errs.SessionNotFound, "no session %s", id)
	}
	ended := func(session, state string, env *errs.Envelope) hub.Event {
		j := map[string]any{"id": "job-" + session, "state": state, "error": env,
			"detail": map[string]any{"session": session, "spec": map[string]any{"site": "chatgpt"}}}
		return wireEvent(hub.EventRunUpdate, "job-"+session, j)
	}
	stateEv := func(session, state string) hub.Event {
		return wireEvent(hub.EventRunUpdate, "", job.Event{Session: session, Kind: job.EventState, State: job.State(state)})
	}
	// The window's names for the sites (issue 19: no lowercase ids).
	names := func(id string) string { return map[string]string{"chatgpt": "ChatGPT", "claude": "Claude"}[id] }
	apData, _ := json.Marshal(hub.Approval{JobID: "j1", ClientName: "codex", Kind: hub.KindAsk, Site: "chatgpt", Summary: "refactor the parser"})
	forged, _ := json.Marshal(hub.Approval{JobID: "j2", ClientName: "codex", Kind: hub.KindAsk, Site: "chatgpt", Summary: "pay\u202eredro\u202c now\u001b[8m hidden"})
	cases := []struct {
		name    string
		ev      hub.Event
		want    bool
		summary string
		body    string
		target  string
		urgent  bool
	}{
		{"a finished run says its answer is ready, on one line", ended("done", "done", nil), true, "Answer ready · ChatGPT", "Boats cross the water", "done", false},
		{"a failed run says why", ended("fail", "failed", nil), true, "Run failed · Claude", "no composer on the page", "fail", false},
		{"a check on the site asks for the user", ended("check", "failed", nil), true, "Ferry needs you · ChatGPT", "solve the check in the browser window", "check", true},
		{"a run that failed before it had a session still says why", ended("", "failed", errs.New(errs.BrowserNotFound, "no browser answers at 127.0.0.1:1")), true, "Run failed · ChatGPT", "no browser answers", "", false},
		{"an approval asks for a decision", wireEvent(hub.EventApprovalRequested, "", json.RawMessage(apData)), true, "Approval needed", "codex asks to send a prompt on chatgpt: refactor the parser", "", true},
		{"an approval's bidi override and escape show as escapes", wireEvent(hub.EventApprovalRequested, "", json.RawMessage(forged)), true, "Approval needed", `codex asks to send a prompt on chatgpt: pay\u202eredro\u202c now\x1b[8m hidden`, "", true},
		{"a run still going says nothing", ended("done", "streaming", nil), false, "", "", "", false},
		{"a cancelled run says nothing", ended("done", "cancelled", nil), false, "", "", "", false},
		{"a job the user rejected says nothing", ended("", "failed", errs.New(errs.ApprovalRejected, "rejected")), false, "", "", "", false},
		{"the pipeline's own state events are not announced", stateEv("done", "done"), false, "", "", "", false},
		{"a partial answer says nothing", wireEvent(hub.EventRunPartial, "", json.RawMessage(`{"session":"done","kind":"partial"}`)), false, "", "", "", false},
		{"a run the history lacks still gets a notice", ended("gone", "done", nil), true, "Answer ready · ChatGPT", "open it in Ferry", "gone", false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			n, ok := notify.NoticeFor(context.Background(), ownerEventOf(c.ev), lookup, names)
			if ok != c.want {
				t.Fatalf("notice %v (%+v), want %v", ok, n, c.want)
			}
			if !ok {
				return
			}
			if n.Summary != c.summary || !strings.Contains(n.Body, c.body) || n.Target != c.target || n.Urgent != c.urgent {
				t.Errorf("notice %+v, want summary %q body ~%q target %q urgent %v", n, c.summary, c.body, c.target, c.urgent)
			}
		})
	}
}

// recordingNotifier keeps what it was asked to show.
type recordingNotifier struct {
	mu  sync.Mutex
	got []notify.Notice
}

func (r *recordingNotifier) Notify(n notify.Notice) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.got = append(r.got, n)
	return nil
}
func (r *recordingNotifier) Close() error { return nil }
func (r *recordingNotifier) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.got)
}

func TestRunNoticesHonourTheSettingAndAnnounceOnce(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	note := &recordingNotifier{}
	r := &runNotices{sh: sh, n: func() notify.Notifier { return note }}
	apData, _ := json.Marshal(hub.Approval{JobID: "j1", ClientName: "codex", Kind: hub.KindAsk})
	ap := ownerEventOf(wireEvent(hub.EventApprovalRequested, "", json.RawMessage(apData)))
	waitCount := func(want int) {
		t.Helper()
		deadline := time.Now().Add(30 * time.Second) // only a hang reaches it
		for note.count() != want && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if got := note.count(); got != want {
			t.Fatalf("%d notices, want %d", got, want)
		}
	}
	r.handle(ap)
	waitCount(1)
	if !r.first("job-1") || r.first("job-1") {
		t.Error("a job's end is not deduplicated")
	}
	settings := &Settings{sh: sh}
	cur, _ := settings.Get()
	cur.Notifications = false
	if _, err := settings.Save(cur); err != nil {
		t.Fatal(err)
	}
	r.handle(ap)
	// The notice that must not come would be shown before a later one:
	// with notices on again, a second approval's notice is the event that
	// proves the first was dropped, not merely late.
	cur.Notifications = true
	if _, err := settings.Save(cur); err != nil {
		t.Fatal(err)
	}
	laterData, _ := json.Marshal(hub.Approval{JobID: "j2", ClientName: "claude", Kind: hub.KindAsk})
	r.handle(ownerEventOf(wireEvent(hub.EventApprovalRequested, "", json.RawMessage(laterData))))
	waitCount(2)
	note.mu.Lock()
	got := append([]notify.Notice(nil), note.got...)
	note.mu.Unlock()
	if strings.Contains(got[0].Body, "claude") || !strings.Contains(got[1].Body, "claude") {
		t.Fatalf("notices %+v: with notifications off the approval was announced anyway", got)
	}
}

// fakeGrabber holds every combination it is asked for.
type fakeGrabber struct{ held map[string]bool }

func (f *fakeGrabber) Grab(h config.Hotkey, _ func()) (func(), error) {
	if f.held == nil {
		f.held = map[string]bool{}
	}
	f.held[h.String()] = true
	return func() { delete(f.held, h.String()) }, nil
}

// fakeTray records the tray's entries; its actions are the ones extras gave it.
type fakeTray struct {
	mu      sync.Mutex
	recent  []tray.Entry
	actions tray.Actions
	stopped bool
}

func (f *fakeTray) SetRecent(r []tray.Entry) { f.mu.Lock(); f.recent = r; f.mu.Unlock() }
func (f *fakeTray) Stop()                    { f.mu.Lock(); f.stopped = true; f.mu.Unlock() }

func TestExtrasStartWithTrayHotkeyAndNotifications(t *testing.T) {
	addr := apptest.StartBus(t)
	server := apptest.StartNotificationServer(t, addr)
	sh, rec, _ := openShell(t, nil)
	ctx := context.Background()
	var seeded string
	err := sh.withCore(func(c *core.Core) error {
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		s, err := repo.Create(ctx, &job.Session{Site: "chatgpt", Prompt: "write a haiku", State: job.StateDone, Answer: "boats"})
		seeded = s.ID
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	trayIcon := &fakeTray{}
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr} // no DISPLAY: the hotkey must say so
	ex := newExtras(sh, apptest.QuietLog(), nil, func(k string) string { return env[k] })
	ex.startTray = func(_ []byte, a tray.Actions, _ *slog.Logger) (tray.Icon, error) {
		trayIcon.actions = a
		return trayIcon, nil
	}
	ex.trayHost = func(string) bool { return true } // a panel shows the icon
	grabber := &fakeGrabber{}
	ex.grabber = func(hotkey.Env) hotkey.Grabber { return grabber }
	win := &fakeWindow{w: 1100, h: 720, visible: true}
	quit := make(chan struct{}, 1)
	ex.startWith(ctx, win, func() { quit <- struct{}{} })
	stopped := false
	defer func() {
		if !stopped {
			ex.stop()
		}
	}()

	t.Run("the tray lists the newest run and the status reports what works", func(t *testing.T) {
		trayIcon.mu.Lock()
		recent := trayIcon.recent
		trayIcon.mu.Unlock()
		if len(recent) != 1 || recent[0].ID != seeded {
			t.Fatalf("tray lists %+v", recent)
		}
		st := ex.status()
		if !st.Tray || !st.Notifications || st.Hotkey.Active || st.Hotkey.Problem == nil || st.Hotkey.Problem.Code != errs.NoDisplay {
			t.Fatalf("status %+v (problem %+v)", st, st.Hotkey.Problem)
		}
		if len(grabber.held) != 0 {
			t.Errorf("a key was grabbed without a display")
		}
	})
	t.Run("the tray's Quick prompt opens the compact window and Quit quits", func(t *testing.T) {
		trayIcon.actions.QuickPrompt()
		if !win.onTop || win.w != quickWidth || !strings.Contains(rec.names(), EventQuickOpen) {
			t.Fatalf("window %dx%d onTop=%v, events %q", win.w, win.h, win.onTop, rec.names())
		}
		trayIcon.actions.ShowRun(seeded)
		if win.onTop || !strings.Contains(rec.names(), EventShowRun) {
			t.Fatalf("ShowRun left onTop=%v, events %q", win.onTop, rec.names())
		}
		trayIcon.actions.Quit()
		select {
		case <-quit:
		default:
			t.Error("Quit did not quit")
		}
	})
	t.Run("an agent's approval request becomes a desktop notification", func(t *testing.T) {
		srv := sh.hubServer()
		if srv == nil {
			t.Fatal("the hub did not start")
		}
		agent := sh.pairAgent(t, "codex")
		if _, err := sh.submitAs(ctx, agent, service.JobRequest{Kind: hub.KindAsk, Site: "chatgpt", Prompt: "refactor the parser"}); err != nil {
			t.Fatal(err)
		}
		deadline := time.Now().Add(30 * time.Second) // only a hang reaches it
		for len(server.Notifications()) == 0 && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		got := server.Notifications()
		if len(got) != 1 || got[0].Summary != "Approval needed" || !strings.Contains(got[0].Body, "codex") || got[0].Urgency != 2 {
			t.Fatalf("notifications %+v", got)
		}
	})
	t.Run("a click on a notification shows the window on its run", func(t *testing.T) {
		if err := ex.notifier().Notify(notify.Notice{Summary: "Answer ready", Target: seeded}); err != nil {
			t.Fatal(err)
		}
		id := server.Notifications()[len(server.Notifications())-1].ID
		win.Hide()
		before := strings.Count(rec.names(), EventShowRun)
		server.Emit(t, "ActionInvoked", id, "default")
		deadline := time.Now().Add(30 * time.Second) // only a hang reaches it
		for (strings.Count(rec.names(), EventShowRun) == before || !win.isVisible()) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if strings.Count(rec.names(), EventShowRun) != before+1 || !win.isVisible() {
			t.Fatalf("events %q, visible=%v", rec.names(), win.isVisible())
		}
	})
	t.Run("stop removes the tray and releases everything", func(t *testing.T) {
		ex.stop()
		stopped = true
		if !trayIcon.stopped {
			t.Error("the tray is still up")
		}
	})
}

// wireEvent is an event of the owner's stream as a client reads it off the
// wire: type, job and the JSON of data.
func wireEvent(typ, jobID string, data any) hub.Event {
	b, _ := json.Marshal(map[string]any{"type": typ, "jobId": jobID, "data": data})
	var ev hub.Event
	_ = json.Unmarshal(b, &ev)
	return ev
}
