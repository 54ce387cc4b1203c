package site

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// builtins holds the sites registered by the vendor packages' init functions.
var builtins = map[string]Site{}

// Register adds a built-in site. It is meant for init functions: a duplicate
// id or an invalid definition is a programming error and panics, so that a
// broken built-in never ships.
func Register(s Site) {
	if _, dup := builtins[s.ID]; dup {
		panic(fmt.Sprintf("site: duplicate site id %q", s.ID))
	}
	s.Builtin = true
	if err := validate(s); err != nil {
		panic(fmt.Sprintf("site: invalid built-in site %q: %v", s.ID, err))
	}
	builtins[s.ID] = s.clone()
}

// Registry is an immutable set of sites keyed by id. Build one with Builtin,
// then Merge user overrides into a new one.
type Registry struct {
	byID map[string]Site
}

// Builtin returns a registry of the built-in sites.
func Builtin() *Registry {
	r := &Registry{byID: make(map[string]Site, len(builtins))}
	for id, s := range builtins {
		r.byID[id] = s.clone()
	}
	return r
}

// IDs returns the site ids in sorted order.
func (r *Registry) IDs() []string {
	out := make([]string, 0, len(r.byID))
	for id := range r.byID {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Sites returns copies of every site, sorted by id.
func (r *Registry) Sites() []Site {
	out := make([]Site, 0, len(r.byID))
	for _, id := range r.IDs() {
		out = append(out, r.byID[id].clone())
	}
	return out
}

// ToolNames lists the tools of every site, sorted, each once (a filter of
// the runs by tool offers them).
func (r *Registry) ToolNames() []string {
	var out []string
	for _, s := range r.byID {
		out = append(out, s.ToolNames()...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// Get returns a copy of the site with the given id (case-insensitive). An
// unknown id is an errs.UnknownSite envelope listing the known ids.
func (r *Registry) Get(id string) (Site, error) {
	s, ok := r.byID[strings.ToLower(strings.TrimSpace(id))]
	if !ok {
		return Site{}, errs.New(errs.UnknownSite, "no site has the id %q", id).
			WithEvidence("known_sites", strings.Join(r.IDs(), ", "))
	}
	return s.clone(), nil
}

// ForURL infers the site of a tab from its live URL: the site whose Allows
// accepts it, the longest path prefix winning when several do. ok is false
// for any other URL, including login pages on other hosts.
func (r *Registry) ForURL(rawURL string) (Site, bool) {
	var best Site
	bestLen := -1
	for _, id := range r.IDs() {
		s := r.byID[id]
		a, err := parseAddress(s.Address)
		if err != nil || !a.allows(s.Current(rawURL)) {
			continue
		}
		if len(a.prefix) > bestLen {
			best, bestLen = s, len(a.prefix)
		}
	}
	if bestLen < 0 {
		return Site{}, false
	}
	return best.clone(), true
}

// ForHost infers a site from a bare host name ("chatgpt.com"): the site
// whose address has exactly that host (or lists it among its OldHosts)
// and the shortest path prefix.
func (r *Registry) ForHost(host string) (Site, bool) {
	host = strings.ToLower(strings.TrimSpace(host))
	var best Site
	bestLen := -1
	for _, id := range r.IDs() {
		s := r.byID[id]
		a, err := parseAddress(s.Address)
		if err != nil || (a.host != host && !slices.Contains(s.OldHosts, host)) {
			continue
		}
		if bestLen < 0 || len(a.prefix) < bestLen {
			best, bestLen = s, len(a.prefix)
		}
	}
	if bestLen < 0 {
		return Site{}, false
	}
	return best.clone(), true
}
