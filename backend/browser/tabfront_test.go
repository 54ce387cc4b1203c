package browser

import (
	"context"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestTabsAreShownClosedAndWatched covers what the Tabs view asks of the
// browser: the target events of a tab opened and closed reach a watcher,
// ShowTab puts exactly that tab in front (the page itself says it is
// visible, the other hidden), CloseTab closes it, and an unknown id is
// TargetNotFound.
func TestTabsAreShownClosedAndWatched(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	wctx, stop := context.WithCancel(ctx)
	defer stop()
	changes := make(chan struct{}, 64)
	// WatchTargets is watchTargets' loop: subscribed once it returns.
	go shared.watchTargets(wctx, func() {
		select {
		case changes <- struct{}{}:
		default:
		}
	})()
	drain := func() {
		for {
			select {
			case <-changes:
			default:
				return
			}
		}
	}
	told := func(what string) {
		t.Helper()
		select {
		case <-changes:
		case <-time.After(10 * time.Second):
			t.Fatalf("the watcher was not told of %s", what)
		}
	}
	open := func() *Page {
		t.Helper()
		p, err := shared.OpenTab(ctx, fixture.URL+"/blank.html")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = shared.CloseTab(context.Background(), p.ID()) })
		return p
	}
	visibility := func(p *Page) string {
		t.Helper()
		var v string
		if err := p.EvalInto(ctx, &v, `() => document.visibilityState`); err != nil {
			t.Fatal(err)
		}
		return v
	}

	drain()
	a := open()
	told("a tab opened")
	b := open()

	t.Run("ShowTab puts exactly that tab in front", func(t *testing.T) {
		for _, tc := range []struct{ front, back *Page }{{a, b}, {b, a}} {
			if err := shared.ShowTab(ctx, tc.front.ID()); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(30 * time.Second) // only a hang reaches it
			for visibility(tc.front) != "visible" && time.Now().Before(deadline) {
				time.Sleep(50 * time.Millisecond)
			}
			if f, bk := visibility(tc.front), visibility(tc.back); f != "visible" || bk != "hidden" {
				t.Fatalf("after ShowTab the shown tab is %s and the other %s", f, bk)
			}
		}
	})

	t.Run("CloseTab closes the tab and the watcher hears of it", func(t *testing.T) {
		drain()
		if err := shared.CloseTab(ctx, b.ID()); err != nil {
			t.Fatal(err)
		}
		told("a tab closed")
		tabs, err := shared.Targets(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, tb := range tabs {
			if tb.ID == b.ID() {
				t.Fatal("the closed tab is still listed")
			}
		}
	})

	t.Run("an unknown tab is target_not_found", func(t *testing.T) {
		if err := shared.ShowTab(ctx, "NO-SUCH-TAB"); !errs.Has(err, errs.TargetNotFound) {
			t.Errorf("ShowTab: %v", err)
		}
		if err := shared.CloseTab(ctx, "NO-SUCH-TAB"); !errs.Has(err, errs.TargetNotFound) {
			t.Errorf("CloseTab: %v", err)
		}
	})
}
