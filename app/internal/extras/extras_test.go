package extras

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/hotkey"
	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/app/internal/tray"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/service"
)

// fakeService is the owner's Service as the extras ask it: the settings in
// force, the newest runs, the approvals that wait, a run's record (none).
// Anything else it is asked panics (the Service it embeds is nil).
type fakeService struct {
	service.Service

	mu        sync.Mutex
	settings  config.Settings
	sessions  []service.SessionSummary
	approvals []service.Approval
}

func (f *fakeService) Settings(context.Context, service.Caller, service.SettingsRequest) (config.Settings, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.settings, nil
}

// setNotifications turns the notifications setting on or off, as a save in
// Settings does.
func (f *fakeService) setNotifications(on bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.settings.Notifications = on
}

func (f *fakeService) ListSessions(context.Context, service.Caller, service.SessionQuery) ([]service.SessionSummary, error) {
	return f.sessions, nil
}

func (f *fakeService) ListApprovals(context.Context, service.Caller, service.ListApprovalsRequest) ([]service.Approval, error) {
	return f.approvals, nil
}

func (f *fakeService) ViewSession(_ context.Context, _ service.Caller, ref service.SessionRef) (service.SessionDetail, error) {
	return service.SessionDetail{}, errs.New(errs.SessionNotFound, "no session %s", ref.ID)
}

// testShell is a Shell over svc whose owner's events are those the test
// sends on events (none when events is nil); the frontend's events go to
// emit.
func testShell(svc *fakeService, events chan event.Event, emit Emitter) Shell {
	return Shell{
		WithService: func(fn func(service.Service) error) error { return fn(svc) },
		Subscribe: func(ctx context.Context, buf int) (any, <-chan event.Event) {
			out := make(chan event.Event, buf)
			go func() {
				defer close(out) // as the owner's stream does when ctx ends
				for {
					select {
					case ev := <-events:
						select {
						case out <- ev:
						case <-ctx.Done():
							return
						}
					case <-ctx.Done():
						return
					}
				}
			}()
			return svc, out
		},
		Emitter: func() Emitter { return emit },
		Notes:   &notify.Groups{},
		Caller:  service.Owner(service.FaceDesktop),
	}
}

// approvalEvent is the owner's approval.requested event for ap.
func approvalEvent(ap service.Approval) event.Event {
	return event.Event{Type: event.ApprovalRequested, JobID: ap.JobID, ClientID: ap.ClientID, Approval: &ap}
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
	svc := &fakeService{settings: config.Defaults()}
	note := &recordingNotifier{}
	r := &runNotices{sh: testShell(svc, nil, nil), n: func() notify.Notifier { return note }}
	ap := approvalEvent(service.Approval{JobID: "j1", ClientName: "codex", Kind: service.KindAsk})
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
	svc.setNotifications(false)
	r.handle(ap)
	// The notice that must not come would be shown before a later one:
	// with notices on again, a second approval's notice is the event that
	// proves the first was dropped, not merely late.
	svc.setNotifications(true)
	r.handle(approvalEvent(service.Approval{JobID: "j2", ClientName: "claude", Kind: service.KindAsk}))
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
	ctx := context.Background()
	// The history holds one run, the newest.
	seeded := "s-1"
	run := &job.Session{ID: seeded, Site: "chatgpt", Prompt: "write a haiku", State: job.StateDone, Answer: "boats"}
	svc := &fakeService{settings: config.Defaults(),
		sessions: []service.SessionSummary{{ID: seeded, Extra: &service.SessionExtra{Listed: service.Listed{Session: run}}}}}
	events := make(chan event.Event, 8)
	rec := &apptest.Recorder{}
	trayIcon := &fakeTray{}
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr} // no DISPLAY: the hotkey must say so
	ex := New(testShell(svc, events, rec), testSize, apptest.QuietLog(), nil, func(k string) string { return env[k] })
	ex.startTray = func(_ []byte, a tray.Actions, _ *slog.Logger) (tray.Icon, error) {
		trayIcon.actions = a
		return trayIcon, nil
	}
	ex.trayHost = func(string) bool { return true } // a panel shows the icon
	grabber := &fakeGrabber{}
	ex.grabber = func(hotkey.Env) hotkey.Grabber { return grabber }
	win := &fakeWindow{w: 1100, h: 720, visible: true}
	quit := make(chan struct{}, 1)
	ex.Start(ctx, win, func() { quit <- struct{}{} })
	stopped := false
	defer func() {
		if !stopped {
			ex.Stop()
		}
	}()

	t.Run("the tray lists the newest run and the status reports what works", func(t *testing.T) {
		trayIcon.mu.Lock()
		recent := trayIcon.recent
		trayIcon.mu.Unlock()
		if len(recent) != 1 || recent[0].ID != seeded {
			t.Fatalf("tray lists %+v", recent)
		}
		st := ex.Status()
		if !st.Tray || !st.Notifications || st.Hotkey.Active || st.Hotkey.Problem == nil || st.Hotkey.Problem.Code != errs.NoDisplay {
			t.Fatalf("status %+v (problem %+v)", st, st.Hotkey.Problem)
		}
		if len(grabber.held) != 0 {
			t.Errorf("a key was grabbed without a display")
		}
	})
	t.Run("the tray's Quick prompt opens the compact window and Quit quits", func(t *testing.T) {
		trayIcon.actions.QuickPrompt()
		if !win.onTop || win.w != quickWidth || !strings.Contains(rec.Names(), eventQuickOpen) {
			t.Fatalf("window %dx%d onTop=%v, events %q", win.w, win.h, win.onTop, rec.Names())
		}
		trayIcon.actions.ShowRun(seeded)
		if win.onTop || !strings.Contains(rec.Names(), eventShowRun) {
			t.Fatalf("ShowRun left onTop=%v, events %q", win.onTop, rec.Names())
		}
		trayIcon.actions.Quit()
		select {
		case <-quit:
		default:
			t.Error("Quit did not quit")
		}
	})
	t.Run("an agent's approval request becomes a desktop notification", func(t *testing.T) {
		// The owner's event for an agent's job that waits for approval.
		events <- approvalEvent(service.Approval{JobID: "job-1", ClientID: "client-1", ClientName: "codex",
			Kind: service.KindAsk, Site: "chatgpt", Summary: "refactor the parser"})
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
		before := strings.Count(rec.Names(), eventShowRun)
		server.Emit(t, "ActionInvoked", id, "default")
		deadline := time.Now().Add(30 * time.Second) // only a hang reaches it
		for (strings.Count(rec.Names(), eventShowRun) == before || !win.isVisible()) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if strings.Count(rec.Names(), eventShowRun) != before+1 || !win.isVisible() {
			t.Fatalf("events %q, visible=%v", rec.Names(), win.isVisible())
		}
	})
	t.Run("stop removes the tray and releases everything", func(t *testing.T) {
		ex.Stop()
		stopped = true
		if !trayIcon.stopped {
			t.Error("the tray is still up")
		}
	})
}

// TestHiddenStartWithoutTrayShowsTheWindow: the login entry starts Ferry
// hidden; where no tray can show it (no icon, or a session bus with no
// StatusNotifierWatcher) the window shows, since nothing else could bring
// it up.
func TestHiddenStartWithoutTrayShowsTheWindow(t *testing.T) {
	addr := apptest.StartBus(t)
	if tray.SystemPlace().Shown(addr) {
		t.Fatal("a bare session bus reports a tray host")
	}
	env := map[string]string{"DBUS_SESSION_BUS_ADDRESS": addr}
	ex := New(testShell(&fakeService{settings: config.Defaults()}, nil, &apptest.Recorder{}), testSize, apptest.QuietLog(), nil, func(k string) string { return env[k] })
	ex.startTray = func([]byte, tray.Actions, *slog.Logger) (tray.Icon, error) { return nil, errors.New("no tray here") }
	ex.grabber = func(hotkey.Env) hotkey.Grabber { return &fakeGrabber{} }
	ex.StartHidden = true
	win := &fakeWindow{w: 1100, h: 720}
	ex.Start(context.Background(), win, func() {})
	defer ex.Stop()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		win.mu.Lock()
		shown := win.visible
		win.mu.Unlock()
		if shown {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the window started hidden stayed hidden with no tray to show it")
		}
	}
	if ex.Status().Tray {
		t.Error("the status reports a tray")
	}
}

// TestWaitingApprovalsAreAnnouncedWhenTheWatcherStarts: an approval that
// waits before the desktop follows the hub (restored after a restart, say)
// still reaches the notifications, once.
func TestWaitingApprovalsAreAnnouncedWhenTheWatcherStarts(t *testing.T) {
	// An agent's job waited for approval before the watcher followed the
	// owner.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	j := service.Job{ID: "job-1"}
	svc := &fakeService{settings: config.Defaults(), approvals: []service.Approval{{JobID: j.ID, ClientID: "client-1",
		ClientName: "codex", Kind: service.KindAsk, Site: "chatgpt", Summary: "waited before the window"}}}
	got := make(chan event.Event, 8)
	w := &hubWatcher{sh: testShell(svc, make(chan event.Event), nil), interval: 20 * time.Millisecond, onEvent: func(ev event.Event) { got <- ev }}
	go w.run(ctx)
	select {
	case ev := <-got:
		if ev.Type != event.ApprovalRequested || ev.JobID != j.ID || ev.Approval == nil || ev.Approval.Summary != "waited before the window" {
			t.Fatalf("first event %+v (%+v), want the waiting approval of %s", ev, ev.Approval, j.ID)
		}
		if nt, ok := notify.NoticeFor(ctx, ev, nil, nil); !ok || nt.Summary != "Approval needed" {
			t.Fatalf("notice %+v, %v", nt, ok)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the waiting approval was never announced")
	}
	select {
	case ev := <-got:
		if ev.Type == event.ApprovalRequested && ev.JobID == j.ID {
			t.Fatalf("the approval was announced twice")
		}
	case <-time.After(300 * time.Millisecond):
	}
}

// TestDemoMode: the demo's window takes neither the tray nor the hotkey
// (that it refuses autostart is the app's test of the same name).
func TestDemoMode(t *testing.T) {
	log := apptest.QuietLog()
	t.Run("the demo takes neither the tray nor the hotkey, and refuses autostart", func(t *testing.T) {
		e := New(Shell{}, testSize, log, nil, func(string) string { return "" })
		e.WithoutSystemHooks()
		if trayIcon, err := e.startTray(nil, tray.Actions{}, log); trayIcon != nil || errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Errorf("startTray = %v, %v", trayIcon, err)
		}
		if _, err := e.grabber(hotkey.Env{Display: ":0"}).Grab(config.Hotkey{}, func() {}); errs.CodeOf(err) != errs.EnvironmentNotReady {
			t.Errorf("Grab = %v", err)
		}
	})
}
