package sim

import (
	"fmt"
	"maps"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
)

// Site is one simulated site, registered by its vendor package
// (provider/<vendor>) from its init with Register. The server answers for
// Host with the handler Routes builds, serves Script as the page script
// /__sim/assets/<ID>.js next to the shared runtime (web/sim.js), and reads
// the rest when it answers a prompt or a page for the site.
type Site struct {
	// ID is the site id (the site registry's), used by the admin
	// endpoints, the ledger and directives.
	ID string
	// Host is the real hostname the simulator answers for.
	Host string
	// ExtraHosts are further hostnames the site's Routes answer for (a
	// sandbox domain its page frames), mapped and certified like Host.
	ExtraHosts []string
	// Title is the <title> of the site's app page.
	Title string
	// Script builds the site's page in the browser (the shared runtime
	// web/sim.js is loaded first and hands it window.__SIM__).
	Script []byte
	// Head is extra HTML for the page's <head> (say, a script the real app
	// loads on every page).
	Head string
	// DefaultModel answers a prompt; ThinkingModel answers the thinking
	// scenario ("" = DefaultModel).
	DefaultModel, ThinkingModel string
	// Citations is true when the site's thinking answers carry citation
	// markers (U+E200…U+E202) for the decoder to strip.
	Citations bool
	// CodeModel, when set, is the model that answers code mode with a
	// sandbox zip (code_zip and its kin); a site without it answers those
	// scenarios with inline code.
	CodeModel string
	// SessionCookie is the name of the site's session cookie ("" = the
	// simulator's generic one).
	SessionCookie string
	// DeviceCookie, when set, is a device-id cookie the site sets beside
	// the session.
	DeviceCookie string
	// Scenarios lists the scenarios of the Catalog that only some sites
	// implement (Sites != nil there) and this one does.
	Scenarios []string
	// Own are turn or page scenarios only this site has; Register adds
	// them to the Catalog.
	Own []ScenarioInfo
	// Drift maps drift keys (composer, send, stop, answer, copy, done) to
	// the selectors of the drifted_dom scenario that replace the site's.
	Drift map[string]string
	// PageOnlyChats says the site keeps a chat only in the page that runs
	// it: a chat has no address of its own, and an answer whose page went
	// away is not finished (AI Studio). The transcript keeps none of its
	// turns.
	PageOnlyChats bool
	// Routes builds the site's handler for one server: its pages (through
	// ServePage and LoginPage) and its API, usually wrapped in Gate. It is
	// called once by New; per-server state belongs in its closure.
	Routes func(s *Server) http.Handler
}

var (
	regMu    sync.RWMutex
	registry = map[string]Site{}
)

// Register adds a simulated site. It is meant for init functions: a site
// without an id, a host or routes, an id or host registered twice, or a
// scenario in Scenarios that the Catalog does not restrict to some sites is
// a programming error and panics. Register also fills Hosts, Drift and the
// Catalog's site lists.
func Register(site Site) {
	switch {
	case site.ID == "" || site.Host == "" || site.Routes == nil:
		panic("sim: Register needs a site id, a host and routes")
	case site.ID != strings.ToLower(site.ID) || site.Host != strings.ToLower(site.Host):
		panic(fmt.Sprintf("sim: site %q: id and host must be lower case", site.ID))
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := registry[site.ID]; dup {
		panic(fmt.Sprintf("sim: site %q registered twice", site.ID))
	}
	for id, other := range registry {
		if other.Host == site.Host {
			panic(fmt.Sprintf("sim: sites %q and %q both answer for %s", id, site.ID, site.Host))
		}
	}
	names := slices.Clone(site.Scenarios)
	for _, o := range site.Own {
		if _, dup := scenarioInfo(o.Name); dup {
			panic(fmt.Sprintf("sim: site %q defines scenario %q, which exists", site.ID, o.Name))
		}
		Catalog = append(Catalog, ScenarioInfo{Name: o.Name, Page: o.Page, Sites: []string{}, About: o.About})
		names = append(names, o.Name)
	}
	entries := make([]int, 0, len(names))
	for _, name := range names {
		i := slices.IndexFunc(Catalog, func(c ScenarioInfo) bool { return c.Name == name })
		if i < 0 || Catalog[i].Sites == nil {
			panic(fmt.Sprintf("sim: site %q lists scenario %q, which is not one only some sites implement", site.ID, name))
		}
		entries = append(entries, i)
	}
	for _, i := range entries {
		Catalog[i].Sites = append(Catalog[i].Sites, site.ID)
		sort.Strings(Catalog[i].Sites)
	}
	registry[site.ID] = site
	Hosts[site.ID] = site.Host
	for _, h := range site.ExtraHosts {
		extraHosts[h] = site.ID
	}
	if site.Drift != nil {
		Drift[site.ID] = site.Drift
	}
}

// lookup returns the registered site id.
func lookup(id string) (Site, bool) {
	regMu.RLock()
	defer regMu.RUnlock()
	s, ok := registry[id]
	return s, ok
}

// Hosts maps each registered site id to the real hostname the simulator
// answers for. Register fills it; read it, never write it.
var Hosts = map[string]string{}

// extraHosts maps each site's ExtraHosts to its id.
var extraHosts = map[string]string{}

// allHosts lists every hostname the simulator answers for.
func allHosts() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	return slices.Concat(slices.Sorted(maps.Values(Hosts)), slices.Sorted(maps.Keys(extraHosts)))
}

// Drift lists, per registered site and drift key, the selectors of the
// drifted_dom scenario that replace the reference's; a settings override
// with these makes an adapter work again. Register fills it from each
// site's Drift; read it, never write it.
var Drift = map[string]map[string]string{}

// Sites lists the registered site ids in sorted order.
func Sites() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(registry))
	for id := range registry {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
