package site

import (
	"sync"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Change is what an observed navigation did to a Binding.
type Change int

// The changes Observe reports.
const (
	Unchanged Change = iota // still inside (or still outside) the site
	Paused                  // the tab left the site: stop working on it
	Resumed                 // the tab came back: work may continue
)

func (c Change) String() string {
	return [...]string{"unchanged", "paused", "resumed"}[c]
}

// Binding ties a tab to its site. Feed it every URL the tab commits to; it
// pauses when the tab leaves the site's origin or path prefix (a login
// provider, an ad, a look-alike host) and resumes when the tab returns.
// A Binding is safe for concurrent use: navigation events and the job that
// checks it usually run on different goroutines.
type Binding struct {
	mu     sync.Mutex
	site   Site
	addr   address
	url    string
	paused bool
}

// Bind starts a binding for a tab now at rawURL. A tab that starts outside
// the site starts paused.
func Bind(s Site, rawURL string) (*Binding, error) {
	a, err := parseAddress(s.Address)
	if err != nil {
		return nil, errs.Wrap(err, errs.ConfigInvalid, "bind tab to site %q: %v", s.ID, err)
	}
	return &Binding{site: s.clone(), addr: a, url: rawURL, paused: !a.allows(rawURL)}, nil
}

// Observe records the tab's new URL and reports whether that paused or
// resumed the binding.
func (b *Binding) Observe(rawURL string) Change {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.url = rawURL
	inside := b.addr.allows(rawURL)
	switch {
	case inside && b.paused:
		b.paused = false
		return Resumed
	case !inside && !b.paused:
		b.paused = true
		return Paused
	}
	return Unchanged
}

// Paused reports whether the tab is outside its site now.
func (b *Binding) Paused() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.paused
}

// URL returns the last URL observed (unredacted: do not log it).
func (b *Binding) URL() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.url
}

// Check returns nil while the tab is on its site, and otherwise an
// errs.NavigatedAway envelope whose evidence holds the redacted URL (no
// query or fragment, which can carry login tokens). When the tab is on the
// site's login page the hint says to finish logging in.
func (b *Binding) Check() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.paused {
		return nil
	}
	e := errs.New(errs.NavigatedAway, "the %s tab left %s and is paused until it returns", b.site.Name, b.site.Address).
		WithEvidence("site", b.site.ID).WithEvidence("url", Redact(b.url))
	if b.site.IsLoginURL(b.url) {
		e.WithHint("finish logging in to %s in that tab; work resumes when it is back on %s", b.site.Name, b.site.Address)
	}
	return e
}
