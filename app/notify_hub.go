package app

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// sessionLookup reads a run from the history.
type sessionLookup func(ctx context.Context, id string) (*service.Run, error)

// noticeFor decides whether ev deserves a desktop notification and writes
// it: a run that ended (its answer is ready, it failed, or a check on the
// site waits for the user) and an approval an agent waits for. Cancelled
// and rejected jobs, and every other event, get none.
func noticeFor(ctx context.Context, ev ownerEvent, lookup sessionLookup, siteName func(string) string) (Notice, bool) {
	switch ev.Type {
	case eventApprovalRequested:
		if ev.Approval == nil {
			return Notice{}, false
		}
		return Notice{Summary: "Approval needed", Body: approvalLine(*ev.Approval), Urgent: true}, true
	case eventRunUpdate:
	default:
		return Notice{}, false
	}
	// Only the job's view, once per job when it ended, is announced (also
	// for a run that failed before it had a session); the pipeline's own
	// state events, sent while the run goes, are not.
	j := ev.Job
	if j == nil || j.ID == "" {
		return Notice{}, false
	}
	state := record.State(j.State)
	if !state.Terminal() || state == record.StateCancelled || (j.Error != nil && j.Error.Code == errs.ApprovalRejected) {
		return Notice{}, false
	}
	var site, target string
	if d := j.Detail; d != nil {
		site, target = d.Spec.Site, d.Session
	}
	env, answer := j.Error, ""
	if target != "" {
		if s, err := lookup(ctx, target); err == nil {
			site, answer = s.Site, s.Answer
			if s.Error != nil {
				env = s.Error
			}
		}
	}
	site = siteName(site)
	if state == record.StateDone {
		body := oneLine(answer, 160)
		if body == "" {
			body = "The run finished; open it in Ferry."
		}
		return Notice{Summary: "Answer ready · " + site, Body: body, Target: target}, true
	}
	if env == nil {
		env = errs.New(errs.Internal, "the run failed without a recorded reason")
	}
	env = forDesktop(env)
	body := env.Message
	if env.RetryHint != "" {
		body += " — " + env.RetryHint
	}
	if env.Stage == errs.StageInterstitial {
		return Notice{Summary: "Ferry needs you · " + site, Body: oneLine(body, 220), Target: target, Urgent: true}, true
	}
	return Notice{Summary: "Run failed · " + site, Body: oneLine(body, 220), Target: target}, true
}

// approvalLine says who asks for what, as the approval prompt does.
func approvalLine(ap service.Approval) string {
	who := ap.ClientName
	if who == "" {
		who = ap.ClientID
	}
	where := ""
	if ap.Site != "" {
		where = " on " + ap.Site
	}
	what := "a prompt"
	if ap.Kind == service.KindCode {
		what = "a code job"
	}
	// The agent chose the text: bidi overrides and controls show as
	// escapes (safetext), they cannot reorder what the user reads.
	return fmt.Sprintf("%s asks to send %s%s: %s", safetext.Line(who), what, safetext.Line(where), safetext.Line(oneLine(ap.Summary, 120)))
}

// oneLine folds whitespace and cuts s to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// hubWatcher follows the owner's gateway events for the desktop extras:
// notifications, and the tray's list of recent runs. The owner is replaced
// when the core reopens (a settings reset), so the watcher subscribes again
// to whichever owner is current.
type hubWatcher struct {
	sh       *shell
	onEvent  func(ownerEvent)
	interval time.Duration // between looks for a hub when there is none
}

// run follows events until ctx ends. When it first follows a hub it also
// announces the approvals already waiting there: jobs restored from the
// store after a restart, and any requested before it subscribed, whose
// approval.requested event it never saw.
func (w *hubWatcher) run(ctx context.Context) {
	var announced *owner
	for ctx.Err() == nil {
		own, events := w.sh.subscribe(ctx, 256)
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
	_ = w.sh.withService(func(svc service.Service) error {
		var err error
		aps, err = svc.ListApprovals(context.Background(), desktopCaller, service.ListApprovalsRequest{})
		return err
	})
	for _, ap := range aps {
		w.onEvent(ownerEvent{Type: eventApprovalRequested, JobID: ap.JobID, ClientID: ap.ClientID, Time: ap.RequestedAt, Approval: &ap})
	}
}

// subscribe follows the current owner's gateway; events is nil when none
// runs.
func (s *shell) subscribe(ctx context.Context, buf int) (*owner, <-chan ownerEvent) {
	s.mu.RLock()
	own := s.own
	s.mu.RUnlock()
	events, ok := own.subscribe(ctx, buf)
	if !ok {
		return nil, nil
	}
	return own, events
}

// runNotices turns hub events into notifications when the settings allow
// them, each job's end once.
type runNotices struct {
	sh *shell
	n  func() notifier

	mu       sync.Mutex
	notified map[string]bool // job ids whose end was announced
}

func (r *runNotices) handle(ev ownerEvent) {
	if !r.enabled() {
		return
	}
	// Reading the run and talking to the notification server must not
	// hold up the event stream (a full subscriber is dropped).
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		nt, ok := noticeFor(ctx, ev, r.lookup, siteName)
		if !ok || (ev.Type == eventRunUpdate && !r.first(ev.JobID)) {
			return
		}
		if ev.Type == eventRunUpdate {
			site := ""
			if d := ev.Job.Detail; d != nil {
				site = siteName(d.Spec.Site)
			}
			if nt, ok = r.sh.notes.ended(ev.JobID, groupEnd{site: site, notice: nt, done: ev.Job.State == string(record.StateDone)}); !ok {
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
	err := r.sh.withService(func(svc service.Service) error {
		view, err := svc.ViewSession(ctx, desktopCaller, service.SessionRef{ID: id})
		out = view.Session
		return err
	})
	return out, err
}

// currentSettings is the settings in force; ok is false when the owner is
// not open.
func currentSettings(sh *shell) (cur config.Settings, ok bool) {
	err := sh.withService(func(svc service.Service) error {
		var err error
		cur, err = svc.Settings(context.Background(), desktopCaller, service.SettingsRequest{})
		return err
	})
	return cur, err == nil
}
