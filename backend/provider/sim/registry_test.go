package sim_test

import (
	"net/http"
	"reflect"
	"slices"
	"testing"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

func TestTheSiteRegistry(t *testing.T) {
	t.Run("every built-in site is registered, listed in sorted order", func(t *testing.T) {
		want := []string{sim.AIStudio, sim.ChatGPT, sim.Claude, sim.DeepSeek, sim.Gemini, sim.Grok, sim.Kimi}
		slices.Sort(want)
		if got := sim.Sites(); !reflect.DeepEqual(got, want) {
			t.Fatalf("Sites() = %v, want %v", got, want)
		}
		for _, id := range want {
			if sim.Hosts[id] == "" || sim.SiteForHost(sim.Hosts[id]) != id || len(sim.Drift[id]) == 0 {
				t.Fatalf("site %s: host %q answers for %q, drift %v", id, sim.Hosts[id], sim.SiteForHost(sim.Hosts[id]), sim.Drift[id])
			}
		}
	})
	t.Run("the catalog names the sites that implement a site-specific scenario", func(t *testing.T) {
		want := map[string][]string{
			sim.ScenarioThinking:            {sim.AIStudio, sim.ChatGPT, sim.Claude, sim.DeepSeek, sim.Gemini, sim.Grok, sim.Kimi},
			sim.ScenarioCodeZip:             {sim.ChatGPT},
			sim.ScenarioZipSymlink:          {sim.ChatGPT},
			sim.ScenarioConversationTooLong: {sim.ChatGPT, sim.Claude},
			sim.ScenarioSessionExpired:      {sim.ChatGPT, sim.Claude},
			sim.ScenarioRateLimit:           nil,
		}
		for _, info := range sim.Catalog {
			if w, ok := want[info.Name]; ok && !reflect.DeepEqual(info.Sites, w) {
				t.Errorf("%s: sites %v, want %v", info.Name, info.Sites, w)
			}
		}
	})
	panics := func(t *testing.T, s sim.Site) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Fatalf("Register(%s on %s) did not panic", s.ID, s.Host)
			}
		}()
		sim.Register(s)
	}
	routes := func(*sim.Server) http.Handler { return http.NotFoundHandler() }
	t.Run("a duplicate id panics", func(t *testing.T) {
		panics(t, sim.Site{ID: sim.Kimi, Host: "kimi.example", Routes: routes})
	})
	t.Run("a host another site answers for panics", func(t *testing.T) {
		panics(t, sim.Site{ID: "kimi2", Host: sim.Hosts[sim.Kimi], Routes: routes})
	})
	t.Run("a scenario every site implements cannot be claimed", func(t *testing.T) {
		panics(t, sim.Site{ID: "claimer", Host: "claimer.example", Routes: routes, Scenarios: []string{sim.ScenarioRateLimit}})
	})
}
