package search

import "container/heap"

// short is a shortlisted run: its sort key and its rating, which the next
// keystroke re-rates first (see plan.seed).
type short struct {
	pre     int32
	created int64
	c       cand
}

// better orders shortlisted runs: structural score, then recency.
func (a short) better(b short) bool { return ranks(a.pre, a.created, a.c.slot, b) }

// ranks reports whether a run with structural score pre, made at created,
// in slot, is better than b.
func ranks(pre int32, created int64, slot int32, b short) bool {
	if pre != b.pre {
		return pre > b.pre
	}
	if created != b.created {
		return created > b.created
	}
	return slot > b.c.slot
}

// shortHeap keeps the best runs offered, worst at the root.
type shortHeap struct{ items []short }

func (h *shortHeap) Len() int           { return len(h.items) }
func (h *shortHeap) Less(i, j int) bool { return h.items[j].better(h.items[i]) }
func (h *shortHeap) Swap(i, j int)      { h.items[i], h.items[j] = h.items[j], h.items[i] }
func (h *shortHeap) Push(v any)         { h.items = append(h.items, v.(short)) }
func (h *shortHeap) Pop() any {
	v := h.items[len(h.items)-1]
	h.items = h.items[:len(h.items)-1]
	return v
}

func (h *shortHeap) offer(s short, keep int) {
	if len(h.items) < keep {
		heap.Push(h, s)
		return
	}
	if s.better(h.items[0]) {
		h.items[0] = s
		heap.Fix(h, 0)
	}
}
