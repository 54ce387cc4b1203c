// Package custom is Ferry's adapter for the sites users define in settings:
// no code per site, only the site's registry entry — its selectors for
// every role, typing strategies, send method and (optionally) a network
// stream with one of the known decoders — driving provider.Web. It is
// registered under the id "custom" and provider.New picks it for any site
// that is not built in.
//
// A custom site must give a selector for every required role
// (site.RequiredRoles); settings that lack one fail when the registry is
// built, and an adapter asked for such a site fails with SiteIncomplete
// naming the missing roles, before anything touches the page.
package custom

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/site"
)

// ID is the adapter id the package registers (provider.CustomAdapter).
const ID = provider.CustomAdapter

func init() {
	provider.Register(ID, func(env provider.Env) (provider.Adapter, error) { return New(env) })
}

// Adapter drives a user-defined site in one tab with provider.Web alone:
// readiness, login and interstitial detection, typing with read-back, one
// send, completion by the site's stream when it names one and by the DOM
// rules otherwise, extraction and code blocks, all from the selectors.
type Adapter struct {
	*provider.Web
}

// New returns the adapter for env. Errors: BadInput when env lacks a page
// or a site, or names a built-in site (those have their own adapters);
// SiteIncomplete, naming every missing role, when the site lacks a
// selector for a required role.
func New(env provider.Env) (*Adapter, error) {
	if env.Site.Builtin {
		return nil, errs.New(errs.BadInput, "the custom adapter drives sites defined in settings, and %q is built in", env.Site.ID).
			WithHint("use the site's own adapter (provider.New picks it)")
	}
	if err := Complete(env.Site); err != nil {
		return nil, err
	}
	w, err := provider.NewWeb(env)
	if err != nil {
		return nil, err
	}
	return &Adapter{Web: w}, nil
}

// Complete checks that s has a selector for every required role, so that
// Ferry can type, send and tell the end of an answer from the page alone.
// Errors: SiteIncomplete with the evidence "missing" listing the roles.
func Complete(s site.Site) error {
	var missing []string
	for _, r := range site.RequiredRoles() {
		if len(s.Selector(r)) == 0 {
			missing = append(missing, "selectors."+string(r))
		}
	}
	if len(missing) == 0 {
		return nil
	}
	list := strings.Join(missing, ", ")
	return errs.New(errs.SiteIncomplete, "site %q is missing %s", s.ID, list).
		WithEvidence("site", s.ID).WithEvidence("missing", list).
		WithHint("add %s to the site's entry in settings", list)
}

// Interface guards.
var (
	_ provider.Adapter        = (*Adapter)(nil)
	_ provider.ModelSelector  = (*Adapter)(nil)
	_ provider.NewChatStarter = (*Adapter)(nil)
)
