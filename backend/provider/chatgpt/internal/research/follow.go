package research

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/frames"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Poll is how often a research's page and frames are looked at.
const Poll = 400 * time.Millisecond

// While the page's words of a research have not changed for APIEvery, its
// conversation is read every APIEvery for the site's own word on it (a
// page that goes on changing is heard from, and costs no read): a research
// the site says is complete whose report has not shown in the page for
// StaleGrace (a page that stopped hearing of it, as when its socket
// dropped) has its conversation opened again, at most Reloads times.
const (
	APIEvery   = 5 * time.Second
	StaleGrace = 10 * time.Second
	Reloads    = 3
)

// Follower follows one research in its tab until its report shows.
type Follower struct {
	Page    *browser.Page
	Confirm bool // start a waiting plan at once (a trusted click on its "Start")
	// Complete reads the conversation: whether the site says the
	// research is complete with its report (nil: never asked).
	Complete func(ctx context.Context) bool
	// Reopen opens the research's conversation again in the tab.
	Reopen func(ctx context.Context) error
	// OnStage hears each new stage ("planning, starts in 40s",
	// "researching, 120 sources").
	OnStage func(stage string)
}

// Progress is where a research stood when Follow returned.
type Progress struct {
	Stage    string
	Planning bool // it never left its plan
	Sources  int  // the most sources the page counted
}

// Follow follows the research until a report frame holds its whole report
// (Frame.Report), which it returns with the sources the page counted.
// Errors: the page's and the frames' envelopes; ctx's error when it ends
// first (with the Progress, whatever the error).
func (f *Follower) Follow(ctx context.Context) (*artifact.Report, Progress, error) {
	pr := Progress{Planning: true}
	watch, err := frames.Start(ctx, f.Page)
	if err != nil {
		return nil, pr, err
	}
	defer func() { watch.Close(context.WithoutCancel(ctx)) }()
	confirmed := false
	var stale staleReport
	text, changed := "", time.Now()
	for {
		quiet := time.Since(changed) >= APIEvery
		if f.Complete != nil && f.Reopen != nil && (quiet || !stale.completed.IsZero()) && stale.due(ctx, f.Complete) {
			if err := f.Reopen(ctx); err != nil {
				return nil, pr, err
			}
			watch.Close(context.WithoutCancel(ctx))
			if watch, err = frames.Start(ctx, f.Page); err != nil {
				return nil, pr, err
			}
			f.stage("completed, opening the conversation again for its report")
		}
		var pg Page
		if err := f.Page.EvalInto(ctx, &pg, PageJS, f.Confirm && !confirmed); err != nil {
			return nil, pr, err
		}
		if pg.Text != text {
			text, changed = pg.Text, time.Now()
		}
		now, plan := Stage(pg.Text)
		pr.Planning = pr.Planning && plan
		pr.Sources = max(pr.Sources, Sources(pg.Text))
		if now != pr.Stage {
			pr.Stage = now
			f.stage(now)
		}
		if pg.Start && f.Confirm && !confirmed {
			// The page may draw the plan again between the look and the
			// click (the tagged "Start" replaced, or covered): the next
			// look tags the new one.
			_, err := f.Page.Click(ctx, `[data-ferry-research="1"]`)
			switch {
			case err == nil:
				confirmed = true
			case !errors.Is(err, browser.ErrObscured) && errs.CodeOf(err) != errs.ComposerNotFound:
				return nil, pr, err
			}
		}
		for _, fr := range watch.Frames() {
			if !strings.Contains(fr.URL, FrameHost) {
				continue
			}
			var got Frame
			if watch.EvalInto(ctx, fr, &got, FrameJS) != nil {
				continue
			}
			if r, ok := got.Report(); ok {
				r.Sources = pr.Sources
				return r, pr, nil
			}
		}
		select {
		case <-ctx.Done():
			return nil, pr, ctx.Err()
		case <-time.After(Poll):
		}
	}
}

func (f *Follower) stage(s string) {
	if f.OnStage != nil {
		f.OnStage(s)
	}
}

// staleReport tells when a research the site says is complete has kept
// its report out of the page too long.
type staleReport struct {
	readAt    time.Time // the last read of the conversation
	completed time.Time // when a read first said complete (or the last reopen)
	reloads   int
}

// due reads the conversation (complete) when APIEvery has passed and
// reports whether the page should be opened again.
func (s *staleReport) due(ctx context.Context, complete func(context.Context) bool) bool {
	if s.reloads >= Reloads || time.Since(s.readAt) < APIEvery {
		return false
	}
	s.readAt = time.Now()
	if s.completed.IsZero() {
		if complete(ctx) {
			s.completed = time.Now()
		}
		return false
	}
	if time.Since(s.completed) < StaleGrace {
		return false
	}
	s.reloads++
	s.completed = time.Now()
	return true
}

// Complete reports whether a research's widget_state (the JSON string of
// metadata.chatgpt_sdk.widget_state) says it is complete with its report:
// status "completed" and a report_message.
func Complete(widgetState string) bool {
	var st struct {
		Status string          `json:"status"`
		Report json.RawMessage `json:"report_message"`
	}
	return json.Unmarshal([]byte(widgetState), &st) == nil && st.Status == "completed" && len(st.Report) > 0 && string(st.Report) != "null"
}
