package notify

import (
	"context"
	"fmt"

	"github.com/ferrydesk/ferry/app/internal/event"
	"github.com/ferrydesk/ferry/app/internal/wording"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/safetext"
	"github.com/ferrydesk/ferry/backend/service"
)

// Lookup reads a run from the history.
type Lookup func(ctx context.Context, id string) (*service.Run, error)

// NoticeFor decides whether ev deserves a desktop notification and writes
// it: a run that ended (its answer is ready, it failed, or a check on the
// site waits for the user) and an approval an agent waits for. Cancelled
// and rejected jobs, and every other event, get none.
func NoticeFor(ctx context.Context, ev event.Event, lookup Lookup, siteName func(string) string) (Notice, bool) {
	switch ev.Type {
	case event.ApprovalRequested:
		if ev.Approval == nil {
			return Notice{}, false
		}
		return Notice{Summary: "Approval needed", Body: approvalLine(*ev.Approval), Urgent: true}, true
	case event.RunUpdate:
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
		body := wording.OneLine(answer, 160)
		if body == "" {
			body = "The run finished; open it in Ferry."
		}
		return Notice{Summary: "Answer ready · " + site, Body: body, Target: target}, true
	}
	if env == nil {
		env = errs.New(errs.Internal, "the run failed without a recorded reason")
	}
	env = wording.ForDesktop(env)
	body := env.Message
	if env.RetryHint != "" {
		body += " — " + env.RetryHint
	}
	if env.Stage == errs.StageInterstitial {
		return Notice{Summary: "Ferry needs you · " + site, Body: wording.OneLine(body, 220), Target: target, Urgent: true}, true
	}
	return Notice{Summary: "Run failed · " + site, Body: wording.OneLine(body, 220), Target: target}, true
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
	return fmt.Sprintf("%s asks to send %s%s: %s", safetext.Line(who), what, safetext.Line(where), safetext.Line(wording.OneLine(ap.Summary, 120)))
}
