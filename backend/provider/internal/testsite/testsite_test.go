// Package testsite is a site that exists only for tests: it proves that a
// site is one folder. Everything Ferry knows about it — its registry entry
// (site_test.go), its stream decoder (stream_test.go), its interstitial rule
// (rules_test.go), its simulator handler and page (sim_test.go, sim.js) and
// its adapter (the plain provider.Web) — lives here and registers from this
// package's init; no file outside this folder names it, and it passes the
// conformance suite like the built-in sites.
package testsite

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/stream"
)

// ID is the test site's id.
const ID = "testsite"

func init() {
	stream.Register(DecoderName, func() stream.Decoder { return NewDecoder() })
	site.Register(Site())
	for _, r := range Rules() {
		interstitial.Register(r)
	}
	sim.Register(SimSite())
	provider.Register(ID, factory)
}

// factory drives the test site with provider.Web alone: its registry entry
// says everything the adapter needs.
func factory(env provider.Env) (provider.Adapter, error) { return provider.NewWeb(env) }

func TestMain(m *testing.M) { providertest.Main(m) }

func TestConformance(t *testing.T) {
	providertest.Run(t, ID, factory, providertest.Config{})
}
