package providertest

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// pauseGuards are the turns whose text stops growing for a while before the
// site is done: each must end with the whole answer, never at the pause.
// The pause (2 s) is longer than the DOM rules' quiet window.
var pauseGuards = []struct {
	name     string
	scenario sim.Scenario
}{
	{"a lone \"I\" that stays a while", sim.Scenario{Name: sim.ScenarioStableI, Params: map[string]string{"pause": "2s"}}},
	{"a pause in the middle of the answer", sim.Scenario{Name: sim.ScenarioPauseMidAnswer, Params: map[string]string{"pause": "2s"}}},
	{"a tool phase after a preamble", sim.Scenario{Name: sim.ScenarioToolPhase, Params: map[string]string{"pause": "2s"}}},
	{"a thinking phase, then a pause, then the answer", sim.Scenario{Name: sim.ScenarioThinking, Params: map[string]string{"pause": "2s"}}},
}

// noEarlyEnd runs every pause guard on the DOM path (the stream disabled by
// a settings override, so the page alone says when the turn is over) and
// checks the answer is whole. Meanwhile it samples the page with the
// site's own stop and finished selectors, to hold the simulator to the
// real sites' behaviour the DOM rules rely on: a stop control while the
// site generates, the pause included, and a finished-action bar only at
// the true end.
func (c *suite) noEarlyEnd(t *testing.T) {
	for _, g := range pauseGuards {
		t.Run(g.name, func(t *testing.T) {
			if !implements(g.scenario.Name, c.site) {
				t.Logf("%s does not apply to %s: its simulated page has no %s scenario", g.name, c.site, g.scenario.Name)
				return
			}
			tab, ctx := c.openOn(t, "dom")
			if err := tab.Adapter.Ready(ctx); err != nil {
				t.Fatal(err)
			}
			var parts []string
			for k, v := range g.scenario.Params {
				parts = append(parts, k, v)
			}
			prompt := "Guard the end of the answer\n" + sim.Directive(g.scenario.Name, parts...)
			sampled := make(chan []pageCount, 1)
			sctx, stopSampling := context.WithCancel(ctx)
			go func() { sampled <- sampleControls(sctx, tab) }()
			res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
			stopSampling()
			samples := <-sampled
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if res.Transport.Source != "dom" {
				t.Fatalf("transport %+v, want the DOM rules", res.Transport)
			}
			want := sim.AnswerFor(c.site, g.scenario, prompt).Text
			if g.scenario.Name == sim.ScenarioThinking {
				// The thinking answer's citations render as the page's pills;
				// its last sentence and the absence of the thoughts say the
				// whole answer, and only it, was read.
				last := want[strings.LastIndex(want, "\n")+1:]
				if !strings.Contains(collapse(res.Answer), collapse(last)) {
					t.Fatalf("answer %q ends before %q: the turn ended early", res.Answer, last)
				}
				if strings.Contains(res.Answer, "Considering what the user asks") {
					t.Fatalf("answer %q holds the thinking", res.Answer)
				}
			} else if collapse(res.Answer) != collapse(want) {
				t.Fatalf("answer %q, want %q: the turn ended early", res.Answer, want)
			}
			if n := c.submissions(tab); n != 1 {
				t.Fatalf("%d submissions, want 1", n)
			}
			final, err := countControls(ctx, tab)
			if err != nil {
				t.Fatal(err)
			}
			if final.Stop != 0 || final.Finished == 0 {
				t.Fatalf("the finished page shows %d stop controls and %d finished-bar elements, want none and some", final.Stop, final.Finished)
			}
			generating := 0
			for _, s := range samples {
				if s.Stop == 0 {
					continue
				}
				generating++
				if s.Finished >= final.Finished {
					t.Fatalf("the page showed its finished-action bar (%d elements, %d at the end) beside the stop control", s.Finished, final.Finished)
				}
			}
			// The pause alone lasts 2 s, sampled every 100 ms.
			if generating < 3 {
				t.Fatalf("%d of %d samples showed the stop control while the site generated, want the pause to show it", generating, len(samples))
			}
			t.Logf("%s: wait %d ms (%s), %d samples, %d with the stop control", g.scenario.Name, res.Timings.WaitMS, res.Transport.CompleteReason, len(samples), generating)
		})
	}
	t.Run("a page whose finished bar never matches ends by the quiet window, not at a pause", c.quietFallback)
	t.Run("a turn that failed after a partial answer is an error on the DOM path, never that partial text", c.domFailure)
}

// domFailure: a turn that fails after part of its answer (the site's error
// notice, or the connection cut) shows no finished bar and no stop
// control; on the DOM path it must come back as the site's error, never
// as the partial text the quiet window would otherwise take. A failure
// that comes all at once (a loaded machine's first look at the page
// already finds it) is never seen generating: its notice still ends it.
func (c *suite) domFailure(t *testing.T) {
	for _, tc := range []struct{ name, directive string }{
		{sim.ScenarioError, sim.Directive(sim.ScenarioError)},
		{sim.ScenarioStreamCut, sim.Directive(sim.ScenarioStreamCut)},
		{"error before the first look", sim.Directive(sim.ScenarioError, "chunk", "20", "interval", "1ms")},
		{"stream_cut before the first look", sim.Directive(sim.ScenarioStreamCut, "chunk", "20", "interval", "1ms")},
	} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			tab, ctx := c.openOn(t, "dom")
			res, err := tab.Ask(t, ctx, Request{Prompt: "Tell me something " + tc.directive})
			if res != nil {
				t.Fatalf("got the answer %q (%s) from a failed turn, want an envelope", res.Answer, res.Transport.CompleteReason)
			}
			if err == nil || ctx.Err() != nil {
				t.Fatalf("got %v with the test's deadline passed: the adapter hung", err)
			}
			if n := c.submissions(tab); n != 1 {
				t.Fatalf("%d submissions, want 1", n)
			}
			t.Logf("%s on the DOM path -> %s", name, errs.CodeOf(err))
		})
	}
}

// quietFallback: with the finished-action bar's selector drifted (it
// matches nothing), the DOM rules fall back to the quiet window, which
// still never ends a turn at a pause while the stop control shows.
func (c *suite) quietFallback(t *testing.T) {
	tab, ctx := c.open(t, Setup{Overrides: []site.Override{{
		ID:        c.site,
		Stream:    &site.StreamOverride{Disabled: true},
		Selectors: map[site.Role][]string{site.RoleFinished: {`[data-ferry-test="no-such-bar"]`}},
	}}})
	sc := sim.Scenario{Name: sim.ScenarioPauseMidAnswer, Params: map[string]string{"pause": "2s"}}
	prompt := "Guard the end without a bar\n" + sim.Directive(sc.Name, "pause", "2s")
	res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
	if err != nil {
		t.Fatalf("Ask: %v", err)
	}
	if want := sim.AnswerFor(c.site, sc, prompt).Text; collapse(res.Answer) != collapse(want) {
		t.Fatalf("answer %q, want %q: the turn ended early", res.Answer, want)
	}
	if res.Transport.Source != "dom" || res.Transport.CompleteReason != "dom:stop_gone+quiet_1200ms" {
		t.Fatalf("transport %+v, want the quiet window of the DOM rules", res.Transport)
	}
	if n := c.submissions(tab); n != 1 {
		t.Fatalf("%d submissions, want 1", n)
	}
	t.Logf("wait %d ms (%s)", res.Timings.WaitMS, res.Transport.CompleteReason)
}

// pageCount is one sample of the page: visible stop controls and visible
// elements of the finished-action bar.
type pageCount struct {
	Stop     int `json:"stop"`
	Finished int `json:"finished"`
}

// countJS counts the visible elements any selector of a role matches (each
// element once), the stop role's required texts applied.
const countJS = `(stop, stopTexts, fin) => {
  const count = (sels, texts) => {
    const seen = new Set();
    for (const s of sels || []) {
      let list = [];
      try { list = document.querySelectorAll(s); } catch (e) { continue; }
      for (const el of list) {
        if (!el.getClientRects().length) continue;
        if (texts && texts.length && !texts.some((t) => (el.innerText || '').includes(t))) continue;
        seen.add(el);
      }
    }
    return seen.size;
  };
  return {stop: count(stop, stopTexts), finished: count(fin, null)};
}`

func countControls(ctx context.Context, tab *Tab) (pageCount, error) {
	var n pageCount
	err := tab.Page.EvalInto(ctx, &n, countJS, tab.Site.Selector(site.RoleStop), tab.Site.Texts[site.RoleStop], tab.Site.Selector(site.RoleFinished))
	return n, err
}

// sampleControls samples the page every 100 ms until ctx ends.
func sampleControls(ctx context.Context, tab *Tab) []pageCount {
	var out []pageCount
	for {
		if n, err := countControls(ctx, tab); err == nil {
			out = append(out, n)
		}
		select {
		case <-ctx.Done():
			return out
		case <-time.After(100 * time.Millisecond):
		}
	}
}
