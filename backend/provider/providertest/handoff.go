package providertest

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// handoff: a turn the answer stream hands off to the page's WebSocket
// (ChatGPT's stream_handoff) is followed there to its end, on the stream
// path: its answer is whole, each socket item taken once (a socket that
// drops mid-turn and comes back replays items), sent once. With the stream
// disabled the DOM, which the page keeps rendering from the socket, ends it.
func (c *suite) handoff(t *testing.T) {
	cases := []struct {
		name, path string
		params     []string
	}{
		{"on the stream path the socket's items complete the turn", "stream", nil},
		{"a socket that drops mid-turn is followed again when the page reconnects", "stream", []string{"drop", "3"}},
		{"with the stream disabled the DOM rules complete the turn", "dom", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tab, ctx := c.openOn(t, tc.path)
			prompt := "A long answer, please " + sim.Directive(sim.ScenarioStreamHandoff, tc.params...)
			res, err := tab.Ask(t, ctx, Request{Prompt: prompt})
			if err != nil {
				t.Fatalf("Ask: %v", err)
			}
			if collapse(res.Answer) != collapse(NormalAnswer(prompt)) {
				t.Fatalf("answer %q, want %q", res.Answer, NormalAnswer(prompt))
			}
			tr := res.Transport
			switch tc.path {
			case "stream":
				if tr.Source != "stream" || !strings.HasPrefix(tr.CompleteReason, "stream:") || !tr.HandedOff || tr.SocketItems < 3 {
					t.Fatalf("transport %+v, want the stream completed from the socket's items", tr)
				}
				if c.cfg.Canonical != nil {
					c.cfg.Canonical(t, tab.H, res)
				}
			case "dom":
				if tr.Source != "dom" {
					t.Fatalf("transport %+v, want the DOM rules", tr)
				}
			}
			if n := c.submissions(tab); n != 1 {
				t.Fatalf("%d submissions, want 1", n)
			}
			t.Logf("handed off: %+v", tr)
		})
	}
}
