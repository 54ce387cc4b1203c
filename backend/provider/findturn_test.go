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

// TestFindTurn drives the shared engine's FindTurn against the simulated
// ChatGPT in headless Chromium: what reattach relies on to never send a
// prompt twice.
func TestFindTurn(t *testing.T) {
	// Slow enough that a turn is still streaming when it is looked for.
	h, err := providertest.Start(sim.WithPace(6, 50*time.Millisecond))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	chatgpt, err := site.Builtin().Get("chatgpt")
	if err != nil {
		t.Fatal(err)
	}
	count := func(prompt string) int {
		n := 0
		for _, s := range h.Server.Submissions(sim.ChatGPT) {
			if strings.Join(strings.Fields(s.Prompt), " ") == strings.Join(strings.Fields(prompt), " ") {
				n++
			}
		}
		return n
	}
	// engine opens a fresh tab on the site and returns the engine for it.
	engine := func(t *testing.T, ctx context.Context) *provider.Web {
		t.Helper()
		p, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = p.Close(context.Background()) })
		w, err := provider.NewWeb(provider.Env{Page: p, Site: chatgpt, Sites: site.Builtin(), Poll: 100 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
		if err := w.Ready(ctx); err != nil {
			t.Fatal(err)
		}
		return w
	}
	// send types and sends prompt and leaves the answer to stream on.
	send := func(t *testing.T, ctx context.Context, w *provider.Web, prompt string) {
		t.Helper()
		if err := w.Compose(ctx, prompt); err != nil {
			t.Fatal(err)
		}
		turn, err := w.Submit(ctx, prompt)
		if err != nil {
			t.Fatal(err)
		}
		turn.Close() // the process that sent it is gone
	}
	collect := func(t *testing.T, ctx context.Context, w *provider.Web, turn *provider.Turn) (*provider.Answer, int) {
		t.Helper()
		partials := 0
		if err := w.Wait(ctx, turn, func(provider.Partial) { partials++ }); err != nil {
			t.Fatalf("wait for the found turn: %v", err)
		}
		ans, err := w.Extract(ctx, turn)
		if err != nil {
			t.Fatalf("extract the found turn: %v", err)
		}
		return ans, partials
	}

	t.Run("a turn still streaming is found and its whole answer collected without a second send", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		w := engine(t, ctx)
		prompt := "Find me while streaming   about\n  harbours"
		send(t, ctx, w, prompt)
		turn, found, err := w.FindTurn(ctx, "Find me while streaming about harbours", time.Now())
		if err != nil || !found || turn == nil {
			t.Fatalf("FindTurn = %v, %v, %v; want the turn (whitespace collapsed)", turn, found, err)
		}
		ans, partials := collect(t, ctx, w, turn)
		// The page renders the answer with HTML's whitespace rules: the
		// topic it quotes from the prompt shows collapsed.
		if want := providertest.NormalAnswer("Find me while streaming about"); ans.Text != want {
			t.Fatalf("answer %q, want %q", ans.Text, want)
		}
		if partials < 2 || turn.Source() != "dom" {
			t.Fatalf("the answer was not followed as it streamed: %d partials, source %q", partials, turn.Source())
		}
		if n := count(prompt); n != 1 {
			t.Fatalf("%d submissions, want 1", n)
		}
	})

	t.Run("a finished turn is found and collected; the tab's conversation URL is known", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		w := engine(t, ctx)
		if u, err := w.ConversationURL(ctx); err != nil || u != "" {
			t.Fatalf("a new chat has conversation URL %q (%v), want none", u, err)
		}
		prompt := "Find me when finished"
		if _, err := providertest.Ask(t, ctx, w, providertest.Request{Prompt: prompt}); err != nil {
			t.Fatal(err)
		}
		turn, found, err := w.FindTurn(ctx, prompt, time.Now())
		if err != nil || !found {
			t.Fatalf("FindTurn = %v, %v", found, err)
		}
		ans, _ := collect(t, ctx, w, turn)
		if ans.Text != providertest.NormalAnswer(prompt) || count(prompt) != 1 {
			t.Fatalf("answer %q after %d submissions", ans.Text, count(prompt))
		}
		// The new chat's transient address (/c/WEB:<uuid>) is no
		// conversation URL; the lasting one is, once the site gives it.
		for {
			u, err := w.ConversationURL(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if u != "" {
				if lasting, _ := w.Site().Conversation(u); !lasting || !strings.HasPrefix(u, "https://chatgpt.com/c/") {
					t.Fatalf("conversation URL %q", u)
				}
				break
			}
			info, err := w.Page.Info(ctx)
			if err != nil {
				t.Fatal(err)
			}
			// The address may have turned lasting between the two reads:
			// the next ConversationURL says so.
			if lasting, transient := w.Site().Conversation(info.URL); !transient && !lasting {
				t.Fatalf("no conversation URL while the tab shows %s", info.URL)
			}
			select {
			case <-ctx.Done():
				t.Fatalf("the tab kept the transient address %s", info.URL)
			case <-time.After(50 * time.Millisecond):
			}
		}
	})

	t.Run("a prompt never sent is certainly absent, even with text in the composer", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		w := engine(t, ctx)
		prompt := "Never sent, only typed"
		if err := w.Compose(ctx, prompt); err != nil {
			t.Fatal(err)
		}
		turn, found, err := w.FindTurn(ctx, prompt, time.Now())
		if err != nil || found || turn != nil {
			t.Fatalf("FindTurn = %v, %v, %v; want nil, false, nil", turn, found, err)
		}
		if count(prompt) != 0 {
			t.Fatal("FindTurn sent the prompt")
		}
	})

	t.Run("a prompt followed by a later turn is an error, not the wrong answer", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		w := engine(t, ctx)
		for _, p := range []string{"First of two", "Second of two"} {
			if _, err := providertest.Ask(t, ctx, w, providertest.Request{Prompt: p}); err != nil {
				t.Fatal(err)
			}
		}
		_, found, err := w.FindTurn(ctx, "First of two", time.Now())
		if found || !errs.Has(err, errs.SessionStale) {
			t.Fatalf("FindTurn = %v, %v; want session_stale", found, err)
		}
	})

	t.Run("a tab that left the site is an error, never an absence", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
		defer cancel()
		w := engine(t, ctx)
		if err := w.Page.Navigate(ctx, sim.URL(sim.Claude, "/")); err != nil {
			t.Fatal(err)
		}
		_, found, err := w.FindTurn(ctx, "anything", time.Now())
		if found || err == nil {
			t.Fatalf("FindTurn = %v, %v; want an error", found, err)
		}
		t.Logf("off the site: %v", err)
	})
}
