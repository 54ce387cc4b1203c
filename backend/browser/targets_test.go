package browser

import (
	"net/url"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestTargets(t *testing.T) {
	t.Run("an opened tab is listed with its address, title and inferred site", func(t *testing.T) {
		p := newTab(t, "/blank.html")
		ctx := testCtx(t, 10*time.Second)
		u, _ := url.Parse(fixture.URL)
		tabs, err := shared.Targets(ctx, func(host string) string {
			if host == u.Hostname() {
				return "fixture"
			}
			return ""
		})
		if err != nil {
			t.Fatal(err)
		}
		for _, tab := range tabs {
			if tab.ID == p.ID() {
				if tab.URL != fixture.URL+"/blank.html" || tab.Title != "Blank fixture" || tab.Site != "fixture" || tab.Type != "page" {
					t.Fatalf("tab %+v", tab)
				}
				return
			}
		}
		t.Fatalf("tab %s not listed in %+v", p.ID(), tabs)
	})
	t.Run("asking for a tab by id neither creates nor swaps tabs", func(t *testing.T) {
		p := newTab(t, "/blank.html")
		ctx := testCtx(t, 10*time.Second)
		before, _ := shared.Targets(ctx, nil)
		got, err := shared.Page(ctx, p.ID())
		if err != nil {
			t.Fatal(err)
		}
		after, _ := shared.Targets(ctx, nil)
		if got.ID() != p.ID() || len(after) != len(before) {
			t.Fatalf("got %s for %s; %d tabs before, %d after", got.ID(), p.ID(), len(before), len(after))
		}
	})
	t.Run("an unknown id is target_not_found, with no fallback", func(t *testing.T) {
		ctx := testCtx(t, 10*time.Second)
		before, _ := shared.Targets(ctx, nil)
		_, err := shared.Page(ctx, "0123456789ABCDEF0123456789ABCDEF")
		if !errs.Has(err, errs.TargetNotFound) {
			t.Fatalf("error %v", err)
		}
		after, _ := shared.Targets(ctx, nil)
		if len(after) != len(before) {
			t.Fatal("a tab was created for an unknown id")
		}
	})
	t.Run("detaching leaves the tab open and it can be attached again", func(t *testing.T) {
		p := newTab(t, "/blank.html")
		ctx := testCtx(t, 10*time.Second)
		if err := p.Detach(ctx); err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(ctx, `() => 1`); !errs.Has(err, errs.TargetNotFound) {
			t.Fatalf("eval on a detached page: %v", err)
		}
		again, err := shared.Page(ctx, p.ID())
		if err != nil {
			t.Fatal(err)
		}
		var title string
		if err := again.EvalInto(ctx, &title, `() => document.title`); err != nil || title != "Blank fixture" {
			t.Fatalf("title %q %v", title, err)
		}
	})
}
