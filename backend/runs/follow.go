package runs

import (
	"context"
	"fmt"
	"strings"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/codemode"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/service"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/tabs"
)

// The session commands that follow runs in flight (poll, watch, reattach,
// sessions doctor) in one place, so that the embedded CLI and the owner
// serving the CLI through the hub decide and word everything alike.

// PickSession is the run ref names (an unambiguous id prefix is enough) or,
// with ref "", the only active run. Errors: errs.SessionNotFound (no such
// run, or no active run), errs.SessionAmbiguous (several active runs,
// listed: the command fails closed).
func PickSession(ctx context.Context, repo *job.Repo, ref string) (*job.Session, error) {
	if ref != "" {
		return repo.Resolve(ctx, ref)
	}
	act, err := repo.Active(ctx)
	if err != nil {
		return nil, err
	}
	switch len(act) {
	case 0:
		return nil, errs.New(errs.SessionNotFound, "no active run; pass --session ID").WithHint("list runs with `ferry sessions list`")
	case 1:
		return act[0], nil
	}
	lines := make([]string, len(act))
	ids := make([]string, len(act))
	for i, s := range act {
		ids[i] = s.ID
		lines[i] = fmt.Sprintf("%s (%s, %s): %s", s.ID, s.Site, s.State, clipLine(s.Prompt, 40))
	}
	return nil, errs.New(errs.SessionAmbiguous, "%d runs are active, pick one with --session: %s", len(act), strings.Join(lines, "; ")).
		WithEvidence("sessions", strings.Join(ids, ","))
}

// clipLine is s on one line, cut to n runes with an ellipsis.
func clipLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// CheckFresh is the gate before poll, watch and reattach: the stored
// TargetID must be a live page on the session's site. Errors:
// errs.SessionStale with the open tabs of that site as candidates; the
// browser's envelopes.
func CheckFresh(ctx context.Context, b *browser.Browser, reg *site.Registry, s *job.Session) error {
	infer := func(host string) string {
		if st, ok := reg.ForHost(host); ok {
			return st.ID
		}
		return ""
	}
	tabs, err := b.Targets(ctx, infer)
	if err != nil {
		return err
	}
	var candidates []string
	for _, t := range tabs {
		if t.ID == s.TargetID {
			if t.Site == s.Site {
				return nil
			}
			return errs.New(errs.SessionStale, "run %s: its tab %s is on %q, not on %s", s.ID, t.ID, hostOf(t.URL), s.Site).
				WithEvidence("session", s.ID).WithEvidence("target", t.ID)
		}
		if t.Site == s.Site {
			candidates = append(candidates, t.ID)
		}
	}
	e := errs.New(errs.SessionStale, "run %s: its tab %s is gone", s.ID, s.TargetID).
		WithEvidence("session", s.ID).WithEvidence("target", s.TargetID)
	if len(candidates) > 0 {
		e = e.WithEvidence("candidates", strings.Join(candidates, ","))
	}
	return e
}

func hostOf(raw string) string {
	if i := strings.Index(raw, "://"); i >= 0 {
		raw = raw[i+3:]
	}
	if i := strings.IndexAny(raw, "/?#"); i >= 0 {
		raw = raw[:i]
	}
	return raw
}

// Reattach resumes run s in browser b after the freshness gate, never
// sending its prompt again once it was sent (job.Runner.Reattach). A run
// that lost its tab or browser after the send (job.Session.LostItsTab) and
// whose tab is not in b is first rebound to a new tab showing its
// journaled conversation. onEvent,
// when set, gets the run's events (state changes and partial text). A code
// step (`ferry code`) also finishes its artifact step from what its session
// recorded: the zips of its turn not yet saved are fetched, verified and
// saved, and the receipt is written beside them. The Finding says what
// reattach found, also when it fails. Errors: the gate's, the adapter's and
// job.Runner's envelopes (for a code step, as RunCode words them).
func (p *Pipeline) Reattach(ctx context.Context, b *browser.Browser, reg *site.Registry, repo *job.Repo, s *job.Session, onEvent func(job.Event)) (*job.Session, *job.Finding, error) {
	s, err := reopenConversation(ctx, b, repo, s)
	if err != nil {
		return s, nil, err
	}
	if err := CheckFresh(ctx, b, reg, s); err != nil {
		return s, nil, err
	}
	st, err := reg.Get(s.Site)
	if err != nil {
		return s, nil, err
	}
	page, err := p.d.Leases.Hold(ctx, tabs.Run{}, b, reg, s.Site, s.TargetID)
	if err != nil {
		return s, nil, err
	}
	defer detach(ctx, page)
	a, err := provider.New(provider.Env{Page: page, Site: st, Sites: reg})
	if err != nil {
		return s, nil, err
	}
	// The tool and the plan's confirmation the run journaled go on as on
	// its first run (a deep research is followed to its report).
	if tr, ok := a.(toolResumer); ok && s.Tool != nil {
		tr.ResumeTool(s.Tool.Request)
	}
	if pc, ok := a.(planConfirmer); ok {
		pc.ConfirmResearchPlan(s.ConfirmPlan)
	}
	code := codemode.NewReattach(repo, s) // nil unless s is a code step
	opts := code.Options()
	if code == nil {
		// A plain ask's images or report come home on reattach as on its
		// first run, and its conversation is archived if it asked so.
		opts = append(opts, job.WithDeliverable(p.askDelivery(s.ArchiveAfter)))
	}
	r := job.NewRunner(repo, opts...)
	if onEvent != nil {
		defer r.Subscribe(onEvent)()
	}
	out, f, err := r.Reattach(ctx, s.ID, a)
	return code.Finish(ctx, out, f, err)
}

// DoctorSessions checks the tabs of the active and stale runs in b: a run
// whose tab is gone or left its site is marked stale (a stale run is
// checked again every time, with its candidate tabs, and one whose tab is
// live on its site again is resumed in the state it was in); with recover a
// stale run's conversation is reopened in a new tab and the run rebound to
// it. A report's State is the state the doctor found the run in, or the
// one it resumed the run at.
// With b nil nothing is checked (every run is "unchecked"). Errors: the
// repository's and the browser's envelopes.
func DoctorSessions(ctx context.Context, repo *job.Repo, b *browser.Browser, reg *site.Registry, recover bool) ([]service.DoctorReport, error) {
	act, err := repo.Active(ctx)
	if err != nil {
		return nil, err
	}
	stale, _, err := repo.List(ctx, job.Filter{State: job.StateStale, Limit: 1000})
	if err != nil {
		return nil, err
	}
	out := []service.DoctorReport{}
	check := append([]*job.Session{}, act...)
	for _, l := range stale {
		check = append(check, l.Session)
	}
	for _, s := range check {
		rp := service.DoctorReport{ID: s.ID, Site: s.Site, State: string(s.State)}
		if b == nil {
			rp.Verdict, rp.Detail = "unchecked", "pass --browser-url to check its tab"
			out = append(out, rp)
			continue
		}
		// Stale runs are checked again too: a second doctor shows why they
		// are stale and the tabs that could take them, and a run whose tab is
		// live on its site again is resumed where it stopped.
		gerr := CheckFresh(ctx, b, reg, s)
		if gerr == nil {
			rp.Verdict = "ok"
			if s.State == job.StateStale {
				back := s.StateBefore
				if !back.Active() {
					back = job.StateResolved
				}
				note := "doctor: its tab " + s.TargetID + " is live on " + s.Site + " again"
				if _, err := repo.Transition(ctx, s.ID, back, note, nil); err != nil {
					return nil, err
				}
				rp.State, rp.Detail = string(back), note+": resumed at "+string(back)
			}
			out = append(out, rp)
			continue
		}
		env := errs.From(gerr)
		if env.Code != errs.SessionStale {
			return nil, gerr
		}
		rp.Verdict, rp.Detail, rp.Candidates = "stale", env.Message, env.Evidence["candidates"]
		if s.State != job.StateStale {
			if _, err := repo.Transition(ctx, s.ID, job.StateStale, env.Message, nil); err != nil {
				return nil, err
			}
			if s, err = repo.Get(ctx, s.ID); err != nil {
				return nil, err
			}
		}
		if recover {
			if s.ConversationURL == "" {
				rp.Detail += "; no conversation URL to reopen"
			} else {
				tab, err := b.OpenTab(ctx, s.ConversationURL)
				if err != nil {
					return nil, err
				}
				back := s.StateBefore
				if !back.Active() {
					back = job.StateResolved
				}
				if _, err := repo.Transition(ctx, s.ID, back, "doctor: reopened the conversation in tab "+tab.ID(), func(x *job.Session) { x.TargetID = tab.ID() }); err != nil {
					return nil, err
				}
				detach(ctx, tab)
				rp.Verdict, rp.State = "recovered", string(back)
				rp.Detail = "reopened " + s.ConversationURL + " in tab " + tab.ID() + ", resumed at " + string(back)
			}
		}
		out = append(out, rp)
	}
	return out, nil
}
