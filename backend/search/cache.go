package search

import "sync"

// cacheSize is how many filter sets keep a typing cache entry.
const cacheSize = 4

// maxFree bounds how many recycled match lists the cache keeps.
const maxFree = 256

// filterKey identifies the filters of a query; the cache only narrows
// results of the same filters.
type filterKey struct {
	site, state, tool string
	from, to          int64
}

// cacheEntry is the complete set of runs among slots [0, n) of snapshot
// epoch that matched terms, as stage one rated them. Entries are immutable
// while they are in the cache or in use.
type cacheEntry struct {
	key   filterKey
	epoch uint64
	n     int
	terms []term
	units [][]cand
	top   []cand // the shortlist, as rated; every one is also in units

	// Guarded by typingCache.mu: searches narrowing from the entry, and
	// whether it has left the cache (then the last user recycles units).
	users   int
	evicted bool
}

// typingCache keeps the latest entry per filter set, most recent first.
//
// A keystroke at 100 000 runs writes a new list of up to 100 000
// remembered runs, and the list it narrowed from is dropped a moment later.
// Left to the garbage collector that is megabytes per keystroke, a
// collection every few dozen keystrokes, and a collection marking a large
// index slows the keystrokes it overlaps. So an entry's lists go back to a
// free list once it has left the cache and no search still reads it, and
// the next keystroke writes into them.
type typingCache struct {
	mu      sync.Mutex
	entries []*cacheEntry
	free    [][]cand
}

// lookup returns an entry whose matches are a superset of those of terms
// among the first n slots: same filters and epoch, no slot past n (a search
// that loaded its snapshot before a writer appended can find the entry of
// one that loaded it after), and terms extend the entry's terms. The caller
// must release it when done.
func (c *typingCache) lookup(key filterKey, epoch uint64, n int, terms []term) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == key && e.epoch == epoch && e.n <= n && extends(terms, e.terms) {
			e.users++
			return e
		}
	}
	return nil
}

// release ends a search's use of e (nil is allowed).
func (c *typingCache) release(e *cacheEntry) {
	if e == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e.users--
	if e.evicted && e.users == 0 {
		c.recycleLocked(e)
	}
}

func (c *typingCache) store(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := []*cacheEntry{e}
	for _, old := range c.entries {
		if old.key != e.key && len(kept) < cacheSize {
			kept = append(kept, old)
			continue
		}
		c.evictLocked(old)
	}
	c.entries = kept
}

// reset forgets every entry (benchmarks measure fresh queries with it).
func (c *typingCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, old := range c.entries {
		c.evictLocked(old)
	}
	c.entries = nil
}

func (c *typingCache) evictLocked(e *cacheEntry) {
	e.evicted = true
	if e.users == 0 {
		c.recycleLocked(e)
	}
}

func (c *typingCache) recycleLocked(e *cacheEntry) {
	for _, u := range e.units {
		if cap(u) > 0 && len(c.free) < maxFree {
			c.free = append(c.free, u[:0])
		}
	}
	e.units = nil
}

// keep returns a copy of list in a recycled list when one is large enough
// (the smallest such), else in a new one of its exact size.
func (c *typingCache) keep(list []cand) []cand {
	if len(list) == 0 {
		return nil
	}
	c.mu.Lock()
	best := -1
	for i, f := range c.free {
		if cap(f) >= len(list) && (best < 0 || cap(f) < cap(c.free[best])) {
			best = i
		}
	}
	var out []cand
	if best >= 0 {
		out = c.free[best][:len(list)]
		c.free[best] = c.free[len(c.free)-1]
		c.free = c.free[:len(c.free)-1]
	}
	c.mu.Unlock()
	if out == nil {
		out = make([]cand, len(list))
	}
	copy(out, list)
	return out
}
