package sitecheck_test

import (
	"slices"
	"testing"

	"github.com/ferrydesk/ferry/backend/site"
)

// TestEverySiteClassifiesEachOfItsRoles: every role a built-in site has
// selectors for is one a plain ask uses (site.AskRoles) or one the site
// lists as optional with a feature it offers, so the site check knows
// whether its absence fails the site or only blocks that feature.
func TestEverySiteClassifiesEachOfItsRoles(t *testing.T) {
	ask := site.AskRoles()
	optional := 0
	for _, s := range site.Builtin().Sites() {
		for _, role := range site.Roles() {
			if len(s.Selector(role)) == 0 {
				if _, ok := s.Optional[role]; ok {
					t.Errorf("%s lists %s as optional but has no selector for it", s.ID, role)
				}
				continue
			}
			f, isOptional := s.Optional[role]
			switch {
			case isOptional && slices.Contains(ask, role):
				t.Errorf("%s lists %s as optional, but a plain ask uses it", s.ID, role)
			case !isOptional && !slices.Contains(ask, role):
				t.Errorf("%s has selectors for %s, which a plain ask does not use: list it in the site's Optional with the feature that needs it", s.ID, role)
			case isOptional && !s.Has(f):
				t.Errorf("%s lists %s as optional for %s, a feature it does not offer", s.ID, role, f)
			case isOptional:
				optional++
			}
		}
	}
	if optional == 0 {
		t.Fatal("no site lists an optional role: the check would prove nothing")
	}
}
