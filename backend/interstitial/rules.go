package interstitial

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// Rule is one site's sign that something stands in the way, registered by
// the site's package (provider/<vendor>) from its init with Register. A rule
// has exactly one sign: a page address (Host, with PathPrefix when set), a
// notice text (Notice) or an answer text (Answer). When the sign is there,
// Detect answers with Verdict and evidence of the sign.
//
// Detect tries the rules of a kind where it tries its own checks of that
// kind: the kinds in the order Detect lists them, and within a kind the
// address rules first, then Detect's own checks, then the text rules, rules
// of one kind in the order of their ids. A rule therefore never hides a
// harder stop of another kind.
type Rule struct {
	// ID names the rule, "<site>/<what>" ("deepseek/server-busy").
	ID string
	// Verdict is the answer: Kind, Code, Message, Action and Terminal.
	// Evidence is filled in by Detect; Cooldown is Detect's rate-limit
	// cooldown (WithCooldown) when Code is errs.RateLimited; Blocking
	// follows from Code.
	Verdict Result
	// Host is a page host (exact, lower case) that is the sign, with
	// PathPrefix ("/sorry") when only part of the host is. A LoginWall
	// address rule names a site's login page.
	Host, PathPrefix string
	// Notice matches text where interstitials put it: a dialog, an alert, a
	// toast, the site's error elements, or the body of a short page without
	// a composer. Text inside an answer never counts.
	Notice *regexp.Regexp
	// Answer matches the whole last answer when it is shorter than 300
	// bytes: a site that renders its error message as the answer.
	Answer *regexp.Regexp
}

var (
	rulesMu sync.RWMutex
	rules   = map[string]Rule{}
)

// Register adds a site's rule. It is meant for the init functions of the
// vendor packages: an empty id, a duplicate id, a rule without exactly one
// sign or a verdict without a kind is a programming error and panics.
func Register(r Rule) {
	signs := 0
	for _, set := range []bool{r.Host != "", r.Notice != nil, r.Answer != nil} {
		if set {
			signs++
		}
	}
	switch {
	case r.ID == "":
		panic("interstitial: Register needs a rule id")
	case signs != 1:
		panic(fmt.Sprintf("interstitial: rule %q needs exactly one of Host, Notice and Answer", r.ID))
	case r.Verdict.Kind == "" || r.Verdict.Kind == None:
		panic(fmt.Sprintf("interstitial: rule %q needs a verdict kind", r.ID))
	case r.PathPrefix != "" && r.Host == "":
		panic(fmt.Sprintf("interstitial: rule %q has a path prefix without a host", r.ID))
	}
	r.Host = strings.ToLower(r.Host)
	rulesMu.Lock()
	defer rulesMu.Unlock()
	if _, dup := rules[r.ID]; dup {
		panic(fmt.Sprintf("interstitial: rule %q registered twice", r.ID))
	}
	rules[r.ID] = r
}

// RuleIDs lists the ids of the registered rules in sorted order.
func RuleIDs() []string {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	out := make([]string, 0, len(rules))
	for id := range rules {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}

// rulesOf returns the address rules and the text rules of kind k, each in
// id order.
func rulesOf(k Kind) (address, text []Rule) {
	rulesMu.RLock()
	defer rulesMu.RUnlock()
	ids := make([]string, 0, len(rules))
	for id, r := range rules {
		if r.Verdict.Kind == k {
			ids = append(ids, id)
		}
	}
	sort.Strings(ids)
	for _, id := range ids {
		r := rules[id]
		if r.Host != "" {
			address = append(address, r)
		} else {
			text = append(text, r)
		}
	}
	return address, text
}

// atAddress reports whether the page at rawURL is r's address sign.
func (r Rule) atAddress(rawURL string) bool {
	return r.Host != "" && host(rawURL) == r.Host && strings.HasPrefix(path(rawURL), r.PathPrefix)
}
