package app

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub"
	"github.com/ferrydesk/ferry/backend/job"
)

// sessionLookup reads a run from the history.
type sessionLookup func(ctx context.Context, id string) (*job.Session, error)

// noticeFor decides whether ev deserves a desktop notification and writes
// it: a run that ended (its answer is ready, it failed, or a check on the
// site waits for the user) and an approval an agent waits for. Cancelled
// and rejected jobs, and every other event, get none.
func noticeFor(ctx context.Context, ev hub.Event, lookup sessionLookup) (Notice, bool) {
	switch ev.Type {
	case hub.EventApprovalRequested:
		ap, ok := ev.Approval()
		if !ok {
			return Notice{}, false
		}
		return Notice{Summary: "Approval needed", Body: approvalLine(ap), Urgent: true}, true
	case hub.EventRunUpdate:
	default:
		return Notice{}, false
	}
	// The hub backend's view of a job that ended comes once per job (also
	// for a run that failed before it had a session); the pipeline's own
	// state events, sent while the run goes, have no id and are not
	// announced.
	je, ok := ev.JobEvent()
	if !ok || je.Job == nil {
		return Notice{}, false
	}
	j := *je.Job
	state := job.State(j.State)
	if !state.Terminal() || state == job.StateCancelled || (j.Error != nil && j.Error.Code == errs.ApprovalRejected) {
		return Notice{}, false
	}
	site, env, answer, target := "", j.Error, "", ""
	if j.Detail != nil {
		site, target = j.Detail.Spec.Site, j.Detail.Session
	}
	if target != "" {
		if s, err := lookup(ctx, target); err == nil {
			site, answer = s.Site, s.Answer
			if s.Error != nil {
				env = s.Error
			}
		}
	}
	if state == job.StateDone {
		body := oneLine(answer, 160)
		if body == "" {
			body = "The run finished; open it in Ferry."
		}
		return Notice{Summary: "Answer ready · " + site, Body: body, Target: target}, true
	}
	if env == nil {
		env = errs.New(errs.Internal, "the run failed without a recorded reason")
	}
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
func approvalLine(ap hub.Approval) string {
	who := ap.ClientName
	if who == "" {
		who = ap.ClientID
	}
	where := ""
	if ap.Site != "" {
		where = " on " + ap.Site
	}
	what := "a prompt"
	if ap.Kind == hub.KindCode {
		what = "a code job"
	}
	return fmt.Sprintf("%s asks to send %s%s: %s", who, what, where, oneLine(ap.Summary, 120))
}

// oneLine folds whitespace and cuts s to n characters.
func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// hubWatcher follows the owner hub's events for the desktop extras:
// notifications, and the tray's list of recent runs. The hub is replaced
// when the core reopens (a settings reset), so the watcher subscribes again
// to whichever hub is current.
type hubWatcher struct {
	sh       *shell
	onEvent  func(hub.Event)
	interval time.Duration // between looks for a hub when there is none
}

// run follows events until ctx ends. When it first follows a hub it also
// announces the approvals already waiting there: jobs restored from the
// store after a restart, and any requested before it subscribed, whose
// approval.requested event it never saw.
func (w *hubWatcher) run(ctx context.Context) {
	var announced *hub.Server
	for ctx.Err() == nil {
		srv := w.sh.hubServer()
		if srv == nil {
			select {
			case <-ctx.Done():
				return
			case <-time.After(w.interval):
				continue
			}
		}
		events := srv.Subscribe(ctx, 256)
		if srv != announced {
			announced = srv
			w.announcePending(srv)
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

// announcePending passes each approval waiting in srv to onEvent as the
// approval.requested event it would have been.
func (w *hubWatcher) announcePending(srv *hub.Server) {
	for _, ap := range srv.Approvals() {
		data, err := json.Marshal(ap)
		if err != nil {
			continue
		}
		w.onEvent(hub.Event{Type: hub.EventApprovalRequested, JobID: ap.JobID, ClientID: ap.ClientID, Time: ap.RequestedAt, Data: data})
	}
}

// hubServer is the running hub, or nil.
func (s *shell) hubServer() *hub.Server {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.hub == nil {
		return nil
	}
	return s.hub.srv
}

// runNotices turns hub events into notifications when the settings allow
// them, each job's end once.
type runNotices struct {
	sh *shell
	n  func() notifier

	mu       sync.Mutex
	notified map[string]bool // job ids whose end was announced
}

func (r *runNotices) handle(ev hub.Event) {
	if !r.enabled() {
		return
	}
	// Reading the run and talking to the notification server must not
	// hold up the event stream (a full subscriber is dropped).
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		nt, ok := noticeFor(ctx, ev, r.lookup)
		if !ok || (ev.Type == hub.EventRunUpdate && !r.first(ev.JobID)) {
			return
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
	on := false
	_ = r.sh.withCore(func(c *core.Core) error {
		on = c.Settings().Notifications
		return nil
	})
	return on
}

func (r *runNotices) lookup(ctx context.Context, id string) (*job.Session, error) {
	var out *job.Session
	err := r.sh.withCore(func(c *core.Core) error {
		repo, err := c.History(ctx)
		if err != nil {
			return err
		}
		out, err = repo.Get(ctx, id)
		return err
	})
	return out, err
}
