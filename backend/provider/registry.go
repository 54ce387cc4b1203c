package provider

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

var (
	regMu     sync.RWMutex
	factories = map[string]Factory{}
)

// Register makes the adapter factory for site id available. It is meant for
// init functions: an empty id, a nil factory or a duplicate id is a
// programming error and panics.
func Register(id string, f Factory) {
	id = strings.ToLower(strings.TrimSpace(id))
	if id == "" || f == nil {
		panic("provider: Register needs a site id and a factory")
	}
	regMu.Lock()
	defer regMu.Unlock()
	if _, dup := factories[id]; dup {
		panic(fmt.Sprintf("provider: adapter %q registered twice", id))
	}
	factories[id] = f
}

// IDs lists the site ids that have an adapter, sorted.
func IDs() []string {
	regMu.RLock()
	defer regMu.RUnlock()
	out := make([]string, 0, len(factories))
	for id := range factories {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// Lookup returns the factory of site id (case-insensitive). A site without
// an adapter is an errs.CapabilityMissing envelope listing those that have
// one (the site may be known to the site registry, yet not drivable).
func Lookup(id string) (Factory, error) {
	regMu.RLock()
	f, ok := factories[strings.ToLower(strings.TrimSpace(id))]
	regMu.RUnlock()
	if !ok {
		return nil, errs.New(errs.CapabilityMissing, "no adapter drives site %q; adapters exist for %s", id, strings.Join(IDs(), ", ")).
			WithEvidence("site", id)
	}
	return f, nil
}

// New builds the adapter of env.Site for env.Page: the one registered for
// the site's id, else, for a site that is not built in, CustomAdapter's.
// Errors: as Lookup, and BadInput when env lacks a page or a site.
func New(env Env) (Adapter, error) {
	if err := checkEnv(env); err != nil {
		return nil, err
	}
	f, err := Lookup(env.Site.ID)
	if err != nil && !env.Site.Builtin {
		// A site defined in the user's settings has no code of its own:
		// the selector-driven custom adapter drives it, when linked in.
		if cf, cerr := Lookup(CustomAdapter); cerr == nil {
			f, err = cf, nil
		}
	}
	if err != nil {
		return nil, err
	}
	return f(env)
}

// CustomAdapter is the id of the adapter (package provider/custom) that New
// uses for a site without an adapter of its own that is not built in: one
// defined in the user's settings.
const CustomAdapter = "custom"
