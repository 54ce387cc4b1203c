package jobs

import (
	"context"
	"slices"
	"strings"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/runs"
	"github.com/ferrydesk/ferry/backend/search"
	"github.com/ferrydesk/ferry/backend/service"
)

// Filters that SearchSessions reads from its query: "site:ID",
// "state:STATE" and "tool:NAME" words narrow the results, the other words
// are the fuzzy text. A query of filters only lists the matching runs
// newest first.
const (
	filterSite  = "site:"
	filterState = "state:"
	filterTool  = "tool:"
)

// ListSessions lists runs newest first, or best match first with q.Query,
// exactly as `ferry sessions list` does: the runs keep holds for (all for
// a nil keep). Errors: as job.Repo.List (errs.BadInput for an unknown
// state or tool).
func (h *Runner) ListSessions(ctx context.Context, q service.SessionQuery, keep func(id string) bool) ([]service.SessionSummary, error) {
	return h.list(ctx, job.Filter{Site: q.Site, State: job.State(q.State), Tool: q.Tool, Query: q.Query, Limit: q.Limit}, keep)
}

// SearchSessions searches the runs keep holds for (all for a nil keep);
// see filterSite, filterState and filterTool for the filter words it
// understands. Errors: as job.Repo.List (errs.BadInput for an unknown
// state or tool).
func (h *Runner) SearchSessions(ctx context.Context, query string, limit int, keep func(id string) bool) ([]service.SessionSummary, error) {
	f := job.Filter{Limit: limit}
	var text []string
	for _, w := range strings.Fields(query) {
		switch {
		case strings.HasPrefix(w, filterSite) && len(w) > len(filterSite):
			f.Site = w[len(filterSite):]
		case strings.HasPrefix(w, filterState) && len(w) > len(filterState):
			f.State = job.State(w[len(filterState):])
		case strings.HasPrefix(w, filterTool) && len(w) > len(filterTool):
			f.Tool = w[len(filterTool):]
		default:
			text = append(text, w)
		}
	}
	f.Query = strings.Join(text, " ")
	return h.list(ctx, f, keep)
}

// list lists the runs that pass f and keep (all for a nil keep). With keep,
// the best search.MaxLimit matches are filtered, and the total counts the
// kept runs only: a caller learns nothing of the others.
func (h *Runner) list(ctx context.Context, f job.Filter, keep func(id string) bool) ([]service.SessionSummary, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return nil, err
	}
	limit := f.Limit
	if keep != nil {
		f.Limit = search.MaxLimit
	}
	items, total, err := repo.List(ctx, f)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		items = slices.DeleteFunc(items, func(it job.Listed) bool { return !keep(it.Session.ID) })
		total = len(items)
		if limit > 0 && len(items) > limit {
			items = items[:limit]
		}
	}
	out := make([]service.SessionSummary, 0, len(items))
	for _, it := range items {
		sum := summaryOf(it.Session)
		sum.Extra = &service.SessionExtra{Listed: it, Total: total}
		out = append(out, sum)
	}
	return out, nil
}

func summaryOf(s *job.Session) service.SessionSummary {
	return service.SessionSummary{ID: s.ID, Site: s.Site, Title: clipText(strings.Join(strings.Fields(s.Prompt), " "), 80), UpdatedAt: s.Updated}
}

// ShowSession returns a run (an unambiguous id prefix is enough) with its
// journal. Errors: as runs.ShowSession.
func (h *Runner) ShowSession(ctx context.Context, id string) (service.Session, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.Session{}, err
	}
	s, j, err := runs.ShowSession(ctx, repo, id)
	if err != nil {
		return service.Session{}, err
	}
	v := sessionView(s, j)
	if v.Detail.Thread, err = threadOf(ctx, repo, s.ID); err != nil {
		return service.Session{}, err
	}
	return v, nil
}

// ViewSession returns run id (an unambiguous prefix is enough) redacted as
// for export, with its journal and its thread. Errors: as runs.ShowSession.
func (h *Runner) ViewSession(ctx context.Context, id string) (service.SessionDetail, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.SessionDetail{}, err
	}
	sess, journal, err := runs.ShowSession(ctx, repo, id)
	if err != nil {
		return service.SessionDetail{}, err
	}
	thread, err := threadOf(ctx, repo, sess.ID)
	if err != nil {
		return service.SessionDetail{}, err
	}
	return service.SessionDetail{Session: sess.Redacted(), Journal: journalOrEmpty(journal), Thread: thread}, nil
}

// threadOf is the thread of run id as the service shows it (nil for a run
// in none). Errors: as job.Repo.Thread.
func threadOf(ctx context.Context, repo *job.Repo, id string) ([]service.SessionSummary, error) {
	thread, err := repo.Thread(ctx, id)
	if err != nil {
		return nil, err
	}
	var out []service.SessionSummary
	for _, t := range thread {
		out = append(out, summaryOf(t))
	}
	return out, nil
}

// sessionView is a run with its journal as the service shows it.
func sessionView(s *job.Session, j []job.Entry) service.Session {
	return service.Session{SessionSummary: summaryOf(s), Detail: &service.SessionDetail{Session: s, Journal: journalOrEmpty(j)}}
}

// journalOrEmpty is j, or an empty journal for none: a run shows its
// journal as a list, never null.
func journalOrEmpty(j []job.Entry) []job.Entry {
	if j == nil {
		return []job.Entry{}
	}
	return j
}

func clipText(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}

// ExportSession renders a run (an unambiguous id prefix is enough) as
// Markdown or JSON with its secrets redacted (job.Export). Errors: as
// runs.ShowSession; errs.BadInput for another format.
func (h *Runner) ExportSession(ctx context.Context, id, format string) (service.Export, error) {
	repo, err := h.d.History(ctx)
	if err != nil {
		return service.Export{}, err
	}
	run, journal, err := runs.ShowSession(ctx, repo, id)
	if err != nil {
		return service.Export{}, err
	}
	b, err := job.Export(run, journal, format)
	if err != nil {
		return service.Export{}, err
	}
	return service.Export{ID: run.ID, Format: format, Body: string(b)}, nil
}
