package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// RetryRun sends run req.Session's request again as c's new job: the
// request of the job that started the run (its kind, prompt or template
// with its variables, site, tab, model, code-mode options and files), or,
// for a run no job of this owner started, the one its record keeps. It
// prefers the run's tab, as RetryJob does. A run whose prompt may already
// be in the site's conversation (job.Session.PromptSent) is sent again only
// with req.SendAgain: otherwise nothing is sent and the result's Held says
// so, and whether the run can be collected without sending instead.
// Errors: errs.HubForbidden for an agent; errs.SessionNotFound,
// errs.SessionAmbiguous; errs.BadInput for a run going on now, or naming
// every attached file that is gone (nothing is sent); as SubmitJob.
func (s *Service) RetryRun(ctx context.Context, c service.Caller, req service.RetryRunRequest) (service.RetryRunResult, error) {
	if err := admit(c, "retry runs", req); err != nil {
		return service.RetryRunResult{}, err
	}
	repo, err := s.c.History(ctx)
	if err != nil {
		return service.RetryRunResult{}, err
	}
	run, err := repo.Resolve(ctx, strings.TrimSpace(req.Session))
	if err != nil {
		return service.RetryRunResult{}, err
	}
	// A run that ended may still have its job recording that end: only a
	// run still in progress is refused.
	if s.h.RunsSession(run.ID) && !run.State.Terminal() {
		return service.RetryRunResult{}, errs.New(errs.BadInput, "run %s is still going", run.ID).
			WithHint("wait for it to end, or cancel it, then retry")
	}
	again, err := s.h.RequestOf(run)
	if err != nil {
		return service.RetryRunResult{}, err
	}
	if sent := run.PromptSent(); sent != record.SentNo && !req.SendAgain {
		return service.RetryRunResult{Held: s.retryHold(run, sent)}, nil
	}
	if err := filesStillThere(again.Files); err != nil {
		return service.RetryRunResult{}, err
	}
	again.ShownRun = run.ID
	j, err := s.SubmitJob(ctx, c, again)
	if err != nil {
		return service.RetryRunResult{}, err
	}
	return service.RetryRunResult{Job: &j}, nil
}

// retryHold says, in the user's words, why a retry of run sent nothing.
func (s *Service) retryHold(run *job.Session, sent record.Sent) *service.RetryHold {
	name := run.Site
	if reg, err := s.c.sites(); err == nil {
		if st, err := reg.Get(run.Site); err == nil && st.Name != "" {
			name = st.Name
		}
	}
	out := &service.RetryHold{Sent: string(sent), Collectable: run.State.Active() || run.Collectable()}
	switch {
	case sent == record.SentMaybe:
		out.Message = name + " may already have this prompt: the run stopped while it was being sent."
	default:
		out.Message = name + " already has this prompt: it was sent before the run stopped."
	}
	if out.Collectable {
		out.Message += " Collecting the rest reads the answer from the conversation without sending the prompt again."
	} else {
		out.Message += " Look at the conversation in the browser first: sending it again may put it there twice."
	}
	return out
}

// filesStillThere checks that every file a retry would attach is still
// there. Errors: errs.BadInput naming each file that is gone.
func filesStillThere(paths []string) error {
	var gone, names []string
	for _, p := range paths {
		if _, err := os.Stat(p); err != nil {
			gone, names = append(gone, p), append(names, filepath.Base(p))
		}
	}
	if len(gone) == 0 {
		return nil
	}
	what := "the attached file " + names[0] + " is"
	if len(names) > 1 {
		what = "the attached files " + strings.Join(names, ", ") + " are"
	}
	return errs.New(errs.BadInput, "%s gone (%s): nothing was sent", what, strings.Join(gone, ", ")).
		WithEvidence("files", strings.Join(gone, "\n")).
		WithHint("put the file back where it was, or send the prompt again with the files it needs now")
}
