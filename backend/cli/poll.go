package cli

import (
	"context"
	"flag"
	"fmt"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/core"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

func init() {
	follow := func(name, short, long string, run func(context.Context, *invocation) error) {
		register(&command{
			name: name, args: "[--session ID] [--browser-url URL | --browser attach]", short: short, long: long,
			flags: func(fs *flag.FlagSet) {
				fs.String("session", "", "the run (an unambiguous id prefix is enough); default: the only active run")
				registerAttachFlags(fs)
				fs.Duration("timeout", 10*time.Minute, "give up collecting after this long (the run stays collectable)")
			},
			run: run,
		})
	}
	follow("poll", "check a run once: its state, and whether its tab is still fresh",
		`Prints the run's state (and its answer once extracted). With --browser-url an
active run also passes the freshness gate: its tab must still be open on its site,
else session_stale with the candidate tabs.`, runPoll)
	follow("watch", "follow a run to its end, streaming the answer as it grows",
		`Reattaches to the run (never sending its prompt again) and prints the answer's
partial text as it grows, then the answer. Needs --browser-url for an active run.`, runWatch)
	follow("reattach", "resume an interrupted run without sending its prompt again",
		`Resumes the run from its journaled state: before the send it starts over; when
it is unknown whether the send happened it looks for the prompt in the conversation
and says what it found; after the send it only collects the answer.`, runReattach)
}

// pickSession is the run --session names or, without it, the only active
// run. Several active runs fail closed (SessionAmbiguous) listing them.
func pickSession(ctx context.Context, inv *invocation, repo *job.Repo) (*job.Session, error) {
	if ref := inv.flag("session").(string); ref != "" {
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
		lines[i] = fmt.Sprintf("%s (%s, %s): %s", s.ID, s.Site, s.State, oneLine(s.Prompt, 40))
	}
	return nil, errs.New(errs.SessionAmbiguous, "%d runs are active, pick one with --session: %s", len(act), strings.Join(lines, "; ")).
		WithEvidence("sessions", strings.Join(ids, ","))
}

// freshness is the gate before poll, watch and reattach: the stored
// TargetID must be a live page on the session's site. Otherwise it returns
// SessionStale with the open tabs of that site as candidates.
func freshness(ctx context.Context, b *browser.Browser, reg *site.Registry, s *job.Session) error {
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

func runPoll(ctx context.Context, inv *invocation) error {
	c, repo, err := openSessions(ctx, inv)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := pickSession(ctx, inv, repo)
	if err != nil {
		return err
	}
	fresh := ""
	if s.State.Active() && wantsBrowser(inv) {
		reg, err := siteRegistry(c.Paths())
		if err != nil {
			return err
		}
		b, err := attach(ctx, inv)
		if err != nil {
			return err
		}
		defer b.Close(context.WithoutCancel(ctx))
		if err := freshness(ctx, b, reg, s); err != nil {
			return err
		}
		fresh = "tab alive"
	}
	if inv.json {
		return inv.printJSON(map[string]any{"session": job.Redacted(s), "fresh": fresh != ""})
	}
	fmt.Fprintf(inv.stdout, "%s  %s  %s", s.ID, s.Site, s.State)
	if fresh != "" {
		fmt.Fprintf(inv.stdout, "  (%s)", fresh)
	}
	fmt.Fprintln(inv.stdout)
	if s.Error != nil {
		fmt.Fprintln(inv.stdout, s.Error.Human())
	}
	if s.Answer != "" {
		fmt.Fprintln(inv.stdout, s.Answer)
	}
	return nil
}

func runWatch(ctx context.Context, inv *invocation) error { return resume(ctx, inv, true) }

func runReattach(ctx context.Context, inv *invocation) error { return resume(ctx, inv, false) }

// resume reattaches to a run after the freshness gate; watch also streams
// partial text.
func resume(ctx context.Context, inv *invocation, stream bool) error {
	timeout := inv.flag("timeout").(time.Duration)
	if timeout <= 0 {
		return errs.New(errs.BadInput, "--timeout must be positive, got %s", timeout)
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	c, repo, err := openSessions(ctx, inv)
	if err != nil {
		return err
	}
	defer c.Close()
	s, err := pickSession(ctx, inv, repo)
	if err != nil {
		return err
	}
	var finding *job.Finding
	if s.State.Active() {
		if s, finding, err = reattachWithBrowser(ctx, inv, c, repo, s, stream); err != nil {
			if finding != nil && !inv.json {
				fmt.Fprintln(inv.stderr, "reattach:", finding.Detail)
			}
			return err
		}
	}
	if inv.json {
		return inv.printJSON(map[string]any{"session": job.Redacted(s), "finding": finding})
	}
	if finding != nil {
		fmt.Fprintln(inv.stderr, "reattach:", finding.Detail)
	}
	if s.Error != nil && s.State == job.StateFailed {
		return s.Error
	}
	_, err = fmt.Fprintln(inv.stdout, s.Answer)
	return err
}

func reattachWithBrowser(ctx context.Context, inv *invocation, c *core.Core, repo *job.Repo, s *job.Session, stream bool) (*job.Session, *job.Finding, error) {
	reg, err := siteRegistry(c.Paths())
	if err != nil {
		return s, nil, err
	}
	b, err := attach(ctx, inv)
	if err != nil {
		return s, nil, err
	}
	defer b.Close(context.WithoutCancel(ctx))
	if err := freshness(ctx, b, reg, s); err != nil {
		return s, nil, err
	}
	st, err := reg.Get(s.Site)
	if err != nil {
		return s, nil, err
	}
	page, err := b.Page(ctx, s.TargetID)
	if err != nil {
		return s, nil, err
	}
	defer page.Detach(context.WithoutCancel(ctx))
	a, err := provider.New(provider.Env{Page: page, Site: st, Sites: reg})
	if err != nil {
		return s, nil, err
	}
	r := job.NewRunner(repo)
	if stream {
		defer r.Subscribe(func(ev job.Event) {
			switch {
			case ev.Kind == job.EventPartial && !inv.json:
				if ev.Partial.Rewritten {
					fmt.Fprint(inv.stderr, "\r\033[K")
				}
				fmt.Fprint(inv.stderr, ev.Partial.Added)
			case ev.Kind == job.EventState && !inv.json:
				fmt.Fprintf(inv.stderr, "[%s]\n", ev.State)
			}
		})()
	}
	return r.Reattach(ctx, s.ID, a)
}

// sessionsDoctor checks the tabs of the active runs; stale ones are marked
// stale, and with --recover reopened from their conversation URL and
// rebound.
func sessionsDoctor(ctx context.Context, inv *invocation, repo *job.Repo) error {
	act, err := repo.Active(ctx)
	if err != nil {
		return err
	}
	stale, _, serr := repo.List(ctx, job.Filter{State: job.StateStale, Limit: 1000})
	if serr != nil {
		return serr
	}
	type report struct {
		ID         string `json:"id"`
		Site       string `json:"site"`
		State      string `json:"state"`
		Verdict    string `json:"verdict"` // ok, stale, recovered, unchecked
		Detail     string `json:"detail,omitempty"`
		Candidates string `json:"candidates,omitempty"`
	}
	var out []report
	var b *browser.Browser
	var reg *site.Registry
	if wantsBrowser(inv) {
		if b, err = attach(ctx, inv); err != nil {
			return err
		}
		defer b.Close(context.WithoutCancel(ctx))
		paths, err := core.ResolvePaths(inv.dataDir)
		if err != nil {
			return err
		}
		if reg, err = siteRegistry(paths); err != nil {
			return err
		}
	}
	check := append([]*job.Session{}, act...)
	for _, l := range stale {
		check = append(check, l.Session)
	}
	for _, s := range check {
		rp := report{ID: s.ID, Site: s.Site, State: string(s.State)}
		if b == nil {
			rp.Verdict, rp.Detail = "unchecked", "pass --browser-url to check its tab"
			out = append(out, rp)
			continue
		}
		gerr := error(nil)
		if s.State != job.StateStale {
			gerr = freshness(ctx, b, reg, s)
		}
		if s.State != job.StateStale && gerr == nil {
			rp.Verdict = "ok"
			out = append(out, rp)
			continue
		}
		rp.Verdict = "stale"
		if gerr != nil {
			env := errs.From(gerr)
			if env.Code != errs.SessionStale {
				return gerr
			}
			rp.Detail, rp.Candidates = env.Message, env.Evidence["candidates"]
			if _, err := repo.Transition(ctx, s.ID, job.StateStale, env.Message, nil); err != nil {
				return err
			}
			s, _ = repo.Get(ctx, s.ID)
		}
		if inv.flag("recover").(bool) {
			if s.ConversationURL == "" {
				rp.Detail = "no conversation URL to reopen"
			} else {
				tab, err := b.OpenTab(ctx, s.ConversationURL)
				if err != nil {
					return err
				}
				back := s.StateBefore
				if !back.Active() {
					back = job.StateResolved
				}
				if _, err := repo.Transition(ctx, s.ID, back, "doctor: reopened the conversation in tab "+tab.ID(), func(x *job.Session) { x.TargetID = tab.ID() }); err != nil {
					return err
				}
				_ = tab.Detach(context.WithoutCancel(ctx))
				rp.Verdict, rp.Detail = "recovered", "reopened in tab "+tab.ID()
			}
		}
		out = append(out, rp)
	}
	if inv.json {
		if out == nil {
			out = []report{}
		}
		return inv.printJSON(map[string]any{"sessions": out})
	}
	if len(out) == 0 {
		_, err := fmt.Fprintln(inv.stdout, "no active or stale runs")
		return err
	}
	for _, rp := range out {
		fmt.Fprintf(inv.stdout, "%s  %s  %s  %s", rp.ID, rp.Site, rp.State, rp.Verdict)
		if rp.Detail != "" {
			fmt.Fprintf(inv.stdout, ": %s", rp.Detail)
		}
		if rp.Candidates != "" {
			fmt.Fprintf(inv.stdout, " (candidate tabs: %s)", rp.Candidates)
		}
		fmt.Fprintln(inv.stdout)
	}
	return nil
}
