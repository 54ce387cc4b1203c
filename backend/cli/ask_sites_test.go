package cli

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// simModel is the model each simulated site names for its default model
// (sim/answer.go defaultModel): the slug a correct model proof carries.
// Kimi's stream names no model, only the message's scenario (its model
// family), which is what the proof carries there.
var simModel = map[string]string{
	sim.ChatGPT:  "gpt-5-6-thinking",
	sim.Gemini:   "gemini-3-flash",
	sim.AIStudio: "gemini-3-pro-preview",
	sim.Grok:     "grok-4",
	sim.Claude:   "claude-sonnet-4-6",
	sim.Kimi:     "SCENARIO_K2",
	sim.DeepSeek: "default",
}

// TestAskEverySite runs the built ferry binary, attached with --browser-url
// to the simulator's Chromium, against each of the seven sites: the answer
// is the simulator's text, sent exactly once, and --json carries the model
// proof (the site's own model name and where it was read), the routing
// proof (the pinned tab and no other) and the transport the site calls for.
func TestAskEverySite(t *testing.T) {
	t.Parallel()
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	dataDir := t.TempDir()
	builtin := site.Builtin()

	for _, id := range sim.Sites() {
		t.Run(id+" answers with the simulator's text and proves its model and tab", func(t *testing.T) {
			st, err := builtin.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			// Each site gets a tab of its own in a fresh browser context:
			// the tab is the visible one of its window, as the tab a user
			// asks from is, and the sites' cookies do not mix.
			bc, err := h.Browser.NewContext(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				cctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
				defer stop()
				_ = bc.Dispose(cctx)
			}()
			tab, err := bc.OpenTab(ctx, "about:blank")
			if err != nil {
				t.Fatal(err)
			}
			if err := tab.Navigate(ctx, sim.URL(id, "/")); err != nil {
				t.Fatal(err)
			}

			prompt := "Which ferry crosses to " + st.Name + "?"
			r := ferry(t, nil, "ask", "--site", id, "--tab", tab.ID(), "--json", "--browser-url", url,
				"--data-dir", dataDir, "--timeout", "45s", "--prompt", prompt)
			if r.code != 0 {
				t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			var res askJSON
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
			}
			want := providertest.NormalAnswer(prompt)
			if res.Answer != want {
				t.Fatalf("answer\n%q\nwant the simulator's\n%q", res.Answer, want)
			}
			subs := h.Server.Submissions(id)
			if len(subs) != 1 || collapseSpace(subs[0].Prompt) != collapseSpace(prompt) || subs[0].Refused {
				t.Fatalf("the site received %+v, want the prompt exactly once", subs)
			}
			if res.Session == "" || res.Site != id {
				t.Fatalf("session %q site %q, want a session of %s", res.Session, res.Site, id)
			}

			m := res.Model
			if m.Slug != simModel[id] || m.Source == "" || m.Requested != site.DefaultModel {
				t.Fatalf("model proof %+v, want slug %q read from a named source for the default model", m, simModel[id])
			}
			rt := res.Routing
			if rt.RequestedTabID != tab.ID() || rt.ControlledTabID != tab.ID() || rt.TabWasCreated || rt.Mismatch {
				t.Fatalf("routing proof %+v, want exactly the pinned tab %s", rt, tab.ID())
			}
			// The routing URL is the conversation's address once the site
			// gives it one; the simulated AI Studio keeps its chats at the
			// start page, so there it stays empty.
			switch {
			case rt.URL == "" && id != sim.AIStudio:
				t.Fatalf("routing proof %+v names no conversation address", rt)
			case rt.URL != "" && (!strings.HasPrefix(rt.URL, st.Address) || rt.URL == st.Address):
				t.Fatalf("routing URL %q is not a conversation on %s", rt.URL, st.Address)
			}

			tr := res.Transport
			switch {
			case st.Stream != nil && (tr.Source != "stream" || !strings.HasPrefix(tr.CompleteReason, "stream:")):
				t.Fatalf("transport %+v, want the network stream to complete the turn", tr)
			case st.Stream == nil && (tr.Source != "dom" || !strings.HasPrefix(tr.CompleteReason, "dom:")):
				t.Fatalf("transport %+v, want the DOM rules on a site without a stream", tr)
			}
			if c := provider.ContentOf(want, res.Content.Source); res.Content.SHA256 != c.SHA256 || res.Content.Bytes != c.Bytes {
				t.Fatalf("content receipt %+v, want %+v", res.Content, c)
			}
			t.Logf("%s: ferry ask took %s; wait %d ms; %s; model %s from %s",
				id, r.took, res.Timings.WaitMS, tr.CompleteReason, m.Slug, m.Source)
		})
	}
}
