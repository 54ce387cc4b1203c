package extras

import (
	"context"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/notify"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// hubWatcher follows the owner's gateway events for the desktop extras:
// notifications, and the tray's list of recent runs. The owner is replaced
// when the core reopens (a settings reset), so the watcher subscribes again
// to whichever owner is current.
type hubWatcher struct {
	sh       Shell
	onEvent  func(event.Event)
	interval time.Duration // between looks for a hub when there is none
}

// run follows events until ctx ends. When it first follows a hub it also
// announces the approvals already waiting there: jobs restored from the
// store after a restart, and any requested before it subscribed, whose
// approval.requested event it never saw.
func (w *hubWatcher) run(ctx context.Context) {
	var announced any
	for ctx.Err() == nil {
		own, events := w.sh.Subscribe(ctx, 256)
		if events == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(w.interval):
				continue
			}
		}
		if own != announced {
			announced = own
			w.announcePending()
		}
		for ev := range events {
			w.onEvent(ev)
		}
		// The channel closed: ctx ended, the hub closed, or we fell
		// behind; look again.
		select {
		case <-ctx.Done():
		case <-time.After(w.interval):
		}
	}
}

// announcePending passes each approval waiting now to onEvent as the
// approval.requested event it would have been.
func (w *hubWatcher) announcePending() {
	var aps []service.Approval
	_ = w.sh.WithService(func(svc service.Service) error {
		var err error
		aps, err = svc.ListApprovals(context.Background(), w.sh.Caller, service.ListApprovalsRequest{})
		return err
	})
	for _, ap := range aps {
		w.onEvent(event.Event{Type: event.ApprovalRequested, JobID: ap.JobID, ClientID: ap.ClientID, Time: ap.RequestedAt, Approval: &ap})
	}
}

// runNotices turns hub events into notifications when the settings allow
// them, each job's end once.
type runNotices struct {
	sh Shell
	n  func() notify.Notifier

	mu       sync.Mutex
	notified map[string]bool // job ids whose end was announced
}

func (r *runNotices) handle(ev event.Event) {
	if !r.enabled() {
		return
	}
	// Reading the run and talking to the notification server must not
	// hold up the event stream (a full subscriber is dropped).
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		nt, ok := notify.NoticeFor(ctx, ev, r.lookup, wording.SiteName)
		if !ok || (ev.Type == event.RunUpdate && !r.first(ev.JobID)) {
			return
		}
		if ev.Type == event.RunUpdate {
			site := ""
			if d := ev.Job.Detail; d != nil {
				site = wording.SiteName(d.Spec.Site)
			}
			if nt, ok = r.sh.Notes.Ended(ev.JobID, notify.GroupEnd{Site: site, Notice: nt, Done: ev.Job.State == string(record.StateDone)}); !ok {
				return
			}
		}
		_ = r.n().Notify(nt) // the notifier logs its own failures
	}()
}

// first reports whether job id's end was not announced yet.
func (r *runNotices) first(target string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.notified == nil {
		r.notified = map[string]bool{}
	}
	if r.notified[target] {
		return false
	}
	if len(r.notified) > 1000 { // a long session: forget the oldest wholesale
		r.notified = map[string]bool{}
	}
	r.notified[target] = true
	return true
}

func (r *runNotices) enabled() bool {
	cur, ok := currentSettings(r.sh)
	return ok && cur.Notifications
}

func (r *runNotices) lookup(ctx context.Context, id string) (*service.Run, error) {
	var out *service.Run
	err := r.sh.WithService(func(svc service.Service) error {
		view, err := svc.ViewSession(ctx, r.sh.Caller, service.SessionRef{ID: id})
		out = view.Session
		return err
	})
	return out, err
}

// currentSettings is the settings in force; ok is false when the owner is
// not open.
func currentSettings(sh Shell) (cur config.Settings, ok bool) {
	err := sh.WithService(func(svc service.Service) error {
		var err error
		cur, err = svc.Settings(context.Background(), sh.Caller, service.SettingsRequest{})
		return err
	})
	return cur, err == nil
}
