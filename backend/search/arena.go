package search

import "unsafe"

// Sizes of arena blocks.
const (
	byteBlock = 1 << 20
	gramBlock = 1 << 14 // uint64 words: 512 gram sets
	textBlock = 1 << 12 // file name texts
)

// arena packs one kind of prepared field (all prompts, all answers ...)
// into large blocks in the order the runs are added, so that a search,
// which walks the runs in slot order, reads each kind front to back instead
// of chasing one small allocation per field across the heap: at 100 000
// runs that is the difference between streaming, which the hardware
// prefetches, and a cache and TLB miss per field. Blocks are append-only:
// bytes once handed out are never written again, so the strings built on
// them stay immutable and concurrent readers never see a write.
type arena struct {
	bytes []byte
	words []uint64
	texts []text
}

// placeAll places ts and returns them as one slice of the arena's text
// block, so a run's file names sit next to the previous run's.
func (a *arena) placeAll(ts []text) []text {
	if len(ts) == 0 {
		return nil
	}
	if cap(a.texts)-len(a.texts) < len(ts) {
		a.texts = make([]text, 0, max(textBlock, len(ts)))
	}
	off := len(a.texts)
	for _, t := range ts {
		a.place(&t)
		a.texts = append(a.texts, t)
	}
	return a.texts[off:len(a.texts):len(a.texts)]
}

// place copies t's text and gram set into the arena.
func (a *arena) place(t *text) {
	if n := len(t.s); n > 0 {
		if cap(a.bytes)-len(a.bytes) < n {
			a.bytes = make([]byte, 0, max(byteBlock, n))
		}
		off := len(a.bytes)
		a.bytes = append(a.bytes, t.s...)
		t.s = unsafe.String(&a.bytes[off], n)
	}
	if t.grams != nil {
		if cap(a.words)-len(a.words) < len(gramSet{}) {
			a.words = make([]uint64, 0, gramBlock)
		}
		off := len(a.words)
		a.words = append(a.words, t.grams[:]...)
		t.grams = (*gramSet)(a.words[off : off+len(gramSet{})])
	}
}
