package provider_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// TestATabStillAnsweringIsNotTypedInto: a run cancelled in Ferry leaves the
// site generating its answer. The next run on that tab must not type (its
// send would stop that answer or go nowhere): Ready waits for the site to
// finish and, past its deadline, fails closed with tab_busy. A wait whose
// run is cancelled mid-stream reports cancelled, not a cut stream. A stop
// control something covers is not pressed, and the failure names the cover.
func TestATabStillAnsweringIsNotTypedInto(t *testing.T) {
	h, err := providertest.Start(sim.WithPace(16, 40*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	chatgpt, err := site.Builtin().Get("chatgpt")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	p, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(context.Background())
	engine := func(ready time.Duration) *provider.Web {
		w, err := provider.NewWeb(provider.Env{Page: p, Site: chatgpt, Sites: site.Builtin(), Poll: 100 * time.Millisecond, ReadyTimeout: ready})
		if err != nil {
			t.Fatal(err)
		}
		return w
	}
	w := engine(30 * time.Second)
	if err := w.Ready(ctx); err != nil {
		t.Fatal(err)
	}
	prompt := "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "10KiB")
	if err := w.Compose(ctx, prompt); err != nil {
		t.Fatal(err)
	}
	turn, err := w.Submit(ctx, prompt)
	if err != nil {
		t.Fatal(err)
	}
	runCtx, stopRun := context.WithCancel(ctx)
	partials := 0
	waited := make(chan error, 1)
	go func() {
		waited <- w.Wait(runCtx, turn, func(provider.Partial) {
			partials++
			if partials == 3 {
				stopRun() // the user presses Cancel while the answer streams
			}
		})
	}()
	select {
	case err := <-waited:
		if !errs.Has(err, errs.Cancelled) {
			t.Fatalf("a wait cancelled mid-stream returned %v (%s), want cancelled", err, errs.CodeOf(err))
		}
	case <-ctx.Done():
		t.Fatal("the cancelled wait never returned")
	}
	turn.Close()

	err = engine(1500 * time.Millisecond).Ready(ctx)
	if !errs.Has(err, errs.TabBusy) {
		t.Fatalf("Ready on a tab still answering: %v (%s), want tab_busy", err, errs.CodeOf(err))
	}
	if env := errs.From(err); env.RetryHint == "" {
		t.Errorf("tab_busy carries no hint for the user")
	}
	// A stop control something covers is never pressed, and the failure
	// names what covers it as a person would find it.
	var placed bool
	if err := p.EvalInto(ctx, &placed, `(sels) => {
		const el = sels.map((s) => document.querySelector(s)).find(Boolean);
		if (!el) return false;
		const r = el.getBoundingClientRect(), b = document.createElement('div');
		b.id = 'promo'; b.className = 'promo-banner'; b.setAttribute('aria-label', 'Try the app');
		Object.assign(b.style, {position: 'fixed', left: (r.left - 4) + 'px', top: (r.top - 4) + 'px',
			width: (r.width + 8) + 'px', height: (r.height + 8) + 'px', zIndex: '9999', background: 'white'});
		document.body.appendChild(b);
		return true;
	}`, chatgpt.Selector(site.RoleStop)); err != nil || !placed {
		t.Fatalf("cover the stop control: placed %v, %v (the site should still be answering)", placed, err)
	}
	stopper, err := provider.NewWeb(provider.Env{Page: p, Site: chatgpt, Sites: site.Builtin(), Poll: 100 * time.Millisecond, StopTimeout: 1500 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	err = stopper.Stop(ctx)
	if by := errs.From(err).Evidence["covered_by"]; !errs.Has(err, errs.TabBusy) || !strings.Contains(by, "#promo") || !strings.Contains(by, "Try the app") {
		t.Fatalf("Stop on a covered stop control: %v (%s), covered_by %q; want tab_busy naming #promo and its label", err, errs.CodeOf(err), by)
	}
	if err := p.EvalInto(ctx, new(bool), `() => { document.getElementById('promo').remove(); return true; }`); err != nil {
		t.Fatal(err)
	}
	// Once the site finished, the tab is ready again.
	if err := engine(90 * time.Second).Ready(ctx); err != nil {
		t.Fatalf("Ready after the site finished: %v", err)
	}
	if n := len(h.Server.Submissions(sim.ChatGPT)); n != 1 {
		t.Fatalf("the site received %d submissions, want 1", n)
	}
}
