package providertest

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// longEnd is how the simulator's long answer ends: a page that shows it
// finished the answer rather than stopping it.
const longEnd = "End of the long answer."

// cancelPrompt is a prompt whose answer streams for much longer than the
// tab's readiness bound (5 s in the suite): a site that went on writing
// after a cancel would make the next send on the tab fail with tab_busy.
var cancelPrompt = "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "10KiB", "chunk", "20", "interval", "40ms")

// askCancelled runs cancelPrompt on tab and cancels the run once some of
// its answer has streamed, as the user's Cancel does. It returns the run's
// error.
func askCancelled(t *testing.T, ctx context.Context, tab *Tab) error {
	t.Helper()
	rctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var once sync.Once
	_, err := tab.Ask(t, rctx, Request{Prompt: cancelPrompt, OnPartial: func(p provider.Partial) {
		if len(p.Text) > 300 {
			once.Do(cancel)
		}
	}})
	if errs.CodeOf(err) != errs.Cancelled {
		t.Fatalf("the run cancelled mid-stream ended with %v, want cancelled", err)
	}
	return err
}

// stopShownJS reports whether the page shows a stop control of the site
// (with the role's words, where it has some).
const stopShownJS = `(sels, texts) => sels.some((s) => { try { return [...document.querySelectorAll(s)].some((el) =>
  el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden' &&
  (!texts || !texts.length || texts.some((t) => (el.innerText || '').includes(t)))); } catch (e) { return false; } })`

func (c *suite) stopShown(t *testing.T, ctx context.Context, tab *Tab) bool {
	t.Helper()
	var shown bool
	if err := tab.Page.EvalInto(ctx, &shown, stopShownJS, tab.Site.Selector(site.RoleStop), tab.Site.Texts[site.RoleStop]); err != nil {
		t.Fatalf("look for the stop control: %v", err)
	}
	return shown
}

func (c *suite) pageText(t *testing.T, ctx context.Context, tab *Tab) string {
	t.Helper()
	var text string
	if err := tab.Page.EvalInto(ctx, &text, `() => document.body.innerText`); err != nil {
		t.Fatalf("read the page: %v", err)
	}
	return text
}

// cancelStops: Cancel presses the site's stop control and the turn ends
// stopped on the page (no stop control, the answer cut short); the next
// prompt on the same tab is sent at once, where a site still writing
// would hold it until the readiness bound and fail with tab_busy.
func (c *suite) cancelStops(t *testing.T) {
	// The site honours the press: what is asserted is that it stopped,
	// not how fast a starved page shows it (CI, under load: two presses
	// and production's 10 s passed before DeepSeek's page stopped), so
	// the bound is only a hang's.
	tab, ctx := c.open(t, Setup{StopTimeout: 30 * time.Second})
	err := askCancelled(t, ctx, tab)
	if got := errs.From(err).Evidence[job.SiteStoppedKey]; got != "true" {
		t.Fatalf("the cancelled run says site_stopped=%q (%v; evidence %v), want true", got, err, errs.From(err).Evidence)
	}
	if honored, refused := tab.H.Server.StopPresses(c.site); honored == 0 {
		t.Fatalf("the site's stop control was pressed %d times to effect (%d ignored), want a press", honored, refused)
	}
	if c.stopShown(t, ctx, tab) {
		t.Fatalf("the page still shows its stop control after the cancelled run returned")
	}
	if strings.Contains(c.pageText(t, ctx, tab), longEnd) {
		t.Fatalf("the page shows the whole answer: the turn was finished, not stopped")
	}
	before := c.submissions(tab)
	res, err := tab.Ask(t, ctx, Request{Prompt: "And after the cancel, a short question"})
	if err != nil {
		t.Fatalf("the next prompt on the tab of the cancelled run: %v", err)
	}
	if !strings.Contains(res.Answer, "a short question") {
		t.Fatalf("the next prompt got %q, not its own answer", res.Answer)
	}
	if got := c.submissions(tab) - before; got != 1 {
		t.Fatalf("the next prompt reached the site %d times, want once", got)
	}
	if strings.Contains(c.pageText(t, ctx, tab), longEnd) {
		t.Fatalf("the stopped answer went on to its end on the page")
	}
}

// pressRefused waits until the simulator recorded a press on site's stop
// control that it refused (ctx bounds the wait).
func pressRefused(ctx context.Context, srv *sim.Server, siteID string) bool {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if _, refused := srv.StopPresses(siteID); refused > 0 {
			return true
		}
		select {
		case <-ctx.Done():
			return false
		case <-tick.C:
		}
	}
}

// cancelRefused: a site whose stop control does nothing goes on writing;
// the cancelled run says so (its record and envelope), after pressing the
// control, instead of claiming the site stopped.
func (c *suite) cancelRefused(t *testing.T) {
	// The site refuses every press: Ferry gives up after production's
	// bound (provider.StopTimeout), which leaves a loaded machine time to
	// press more than once (a shorter one let a press that something
	// passing covered, or one the page never saw, be the only one).
	tab, ctx := c.open(t, Setup{})
	tab.H.Server.RefuseStop(c.site, true)
	err := askCancelled(t, ctx, tab)
	env := errs.From(err)
	if !job.SiteWentOn(err) {
		t.Fatalf("the cancelled run on a site that refused to stop says %q: %v", env.Evidence[job.SiteStoppedKey], err)
	}
	if !strings.Contains(env.Message, "did not stop") {
		t.Errorf("the envelope does not say the site did not stop: %q", env.Message)
	}
	// The page reports a press to the simulator as it handles it: the
	// last one may still be on its way.
	if !pressRefused(ctx, tab.H.Server, c.site) {
		t.Fatalf("Ferry never pressed the stop control of the site that refused: %v (evidence %v)", err, env.Evidence)
	}
	if !c.stopShown(t, ctx, tab) {
		t.Fatalf("the page no longer shows its stop control, though the site refused to stop")
	}
}
