package provider_test

import (
	"context"
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
// run is cancelled mid-stream reports cancelled, not a cut stream.
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
	prompt := "Tell the long story of the ferry\n" + sim.Directive(sim.ScenarioLong, "size", "6KiB")
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
	// Once the site finished, the tab is ready again.
	if err := engine(90 * time.Second).Ready(ctx); err != nil {
		t.Fatalf("Ready after the site finished: %v", err)
	}
	if n := len(h.Server.Submissions(sim.ChatGPT)); n != 1 {
		t.Fatalf("the site received %d submissions, want 1", n)
	}
}
