package search

// winLen is how many bytes of a field a remembered run keeps past a known
// position (see window).
const winLen = 14

// winEnd flags a window that reaches the end of its field.
const winEnd = 0x80

// window is a copy of the few bytes of a field that follow a position the
// typing cache remembers: where the last term's greedy match in the prompt
// ended, or, once the prompt no longer matches the last term (its tier only
// falls as the term grows), where the term's first occurrence in the answer
// continues. A keystroke usually adds a byte that is found there, so it is
// decided without reading the field, which for most remembered runs is
// the only read of their text a keystroke would make: at 100 000 runs
// those scattered reads, not the matching, are what a keystroke costs.
// The zero window knows nothing.
type window struct {
	b [winLen]byte
	n uint8 // bytes held, or'ed with winEnd when the field ends after them
	k uint8 // answer window: bytes of the last term before it; 0 for a prompt window
}

func (w *window) held() int { return int(w.n &^ winEnd) }

// fill copies the bytes of s from at on (none when at is past s).
func (w *window) fill(s string, at int) {
	*w = window{}
	if at > len(s) {
		return
	}
	n := copy(w.b[:], s[at:])
	w.n = uint8(n)
	if at+n == len(s) {
		w.n |= winEnd
	}
}

// setPend records where the last term's greedy match in prompt s ends,
// with the window of bytes that follow it; unknownEnd forgets both.
func (c *cand) setPend(end uint16, s string) {
	c.pend = end
	switch {
	case end == unknownEnd:
		if c.win.k == 0 {
			c.win = window{} // an answer window does not depend on pend
		}
	case int(end)+winLen >= unknownEnd:
		// Matching in the window could move pend past what it can hold
		// (only with a prompt bound above 64 KiB).
		c.win = window{}
	default:
		c.win.fill(s, int(end))
	}
}

// promptFromWindow matches grown, the bytes the last term grew by, greedily
// in the prompt window, exactly as subsequenceFrom would in the prompt. It
// reports decided false when the window runs out before the prompt does;
// otherwise ok says whether the prompt still matches, and on a match pend
// and the window move past the matched bytes. grown must be ASCII, the
// prompt not exotic (byte search is then exact in UTF-8 text).
func (c *cand) promptFromWindow(grown string) (ok, decided bool) {
	w := &c.win
	if c.pend == unknownEnd || w.k != 0 {
		return false, false
	}
	held, at := w.held(), 0
	for i := 0; i < len(grown); i++ {
		j := at
		for j < held && w.b[j] != grown[i] {
			j++
		}
		if j == held {
			return false, w.n&winEnd != 0
		}
		at = j + 1
	}
	c.pend += uint16(at)
	copy(w.b[:], w.b[at:held])
	w.n -= uint8(at)
	return true, true
}

// forgetAnswer drops what c knows of the last term in the answer, when a
// new last term starts.
func (c *cand) forgetAnswer() {
	c.apos = 0
	if c.win.k != 0 {
		c.win = window{}
	}
}

// setAnswerWindow records that term (folded) occurs in answer s at c.apos,
// with the bytes that follow that occurrence.
func (c *cand) setAnswerWindow(s, term string) {
	at := int(c.apos) + len(term)
	if len(term) == 0 || len(term) > 0xff || at > len(s) {
		c.win = window{}
		return
	}
	c.win.fill(s, at)
	c.win.k = uint8(len(term))
}

// answerFromWindow reports whether term, which extends the term the answer
// window was made for, occurs at c.apos as that shorter term did, judging
// only from the window; false means "not known", not "no".
func (c *cand) answerFromWindow(term string) bool {
	k := int(c.win.k)
	if k == 0 || len(term) < k || len(term)-k > c.win.held() {
		return false
	}
	return term[k:] == string(c.win.b[:len(term)-k])
}
