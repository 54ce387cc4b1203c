package search

import "sync"

// cacheSize is how many filter sets keep a typing cache entry.
const cacheSize = 4

// filterKey identifies the filters of a query; the cache only narrows
// results of the same filters.
type filterKey struct {
	site, state string
	from, to    int64
}

// cacheEntry is the complete set of runs among slots [0, n) of snapshot
// epoch that matched terms, as stage one rated them. Entries are immutable.
type cacheEntry struct {
	key   filterKey
	epoch uint64
	n     int
	terms []term
	units [][]cand
	top   []cand // the shortlist, as rated; every one is also in units
}

// typingCache keeps the latest entry per filter set, most recent first.
type typingCache struct {
	mu      sync.Mutex
	entries []*cacheEntry
}

// lookup returns an entry whose matches are a superset of those of terms:
// same filters and epoch, and terms extend the entry's terms.
func (c *typingCache) lookup(key filterKey, epoch uint64, terms []term) *cacheEntry {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, e := range c.entries {
		if e.key == key && e.epoch == epoch && extends(terms, e.terms) {
			return e
		}
	}
	return nil
}

func (c *typingCache) store(e *cacheEntry) {
	c.mu.Lock()
	defer c.mu.Unlock()
	kept := []*cacheEntry{e}
	for _, old := range c.entries {
		if old.key != e.key && len(kept) < cacheSize {
			kept = append(kept, old)
		}
	}
	c.entries = kept
}

// reset forgets every entry (benchmarks measure fresh queries with it).
func (c *typingCache) reset() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.entries = nil
}
