package providertest_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/kimi"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
)

func TestMain(m *testing.M) { providertest.Main(m) }

func factory(env provider.Env) (provider.Adapter, error) { return kimi.New(env) }

// A test's tab may be one an earlier test left (a renderer process used
// again), but nothing the earlier test did reaches it: not its cookies,
// its sites' local or session storage, its history, nor the size it gave
// the tab.
func TestATabUsedAgainKeepsNothingOfTheTestBefore(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	var first string
	t.Run("the test before", func(t *testing.T) {
		tab := providertest.Open(t, ctx, kimi.ID, factory, providertest.Setup{Viewport: &browser.Point{X: 500, Y: 400}})
		first = tab.Page.ID()
		var n int
		if err := tab.Page.EvalInto(ctx, &n, `() => {
			document.cookie = "left=behind; path=/; max-age=3600";
			localStorage.setItem("left", "behind");
			sessionStorage.setItem("left", "behind");
			history.pushState({}, "", "/chat/left-behind");
			return history.length;
		}`); err != nil || n < 2 {
			t.Fatalf("leave state behind: history %d, %v", n, err)
		}
	})
	tab := providertest.Open(t, ctx, kimi.ID, factory, providertest.Setup{})
	if tab.Page.ID() != first {
		t.Fatalf("the second test got tab %s, not the first test's %s: nothing here shows what a tab used again keeps", tab.Page.ID(), first)
	}
	var seen struct {
		Cookie  string `json:"cookie"`
		Local   string `json:"local"`
		Session string `json:"session"`
		History int    `json:"history"`
		Width   int    `json:"width"`
	}
	if err := tab.Page.EvalInto(ctx, &seen, `() => ({cookie: document.cookie, local: localStorage.getItem("left") ?? "",
		session: sessionStorage.getItem("left") ?? "", history: history.length, width: innerWidth})`); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(seen.Cookie, "left=behind") || seen.Local != "" || seen.Session != "" || seen.History != 1 || seen.Width == 500 {
		t.Fatalf("the tab used again kept the test before's state: %+v (want no cookie or storage, one history entry, the default width)", seen)
	}
}
