package search

import "math"

// A term that occurs in a field only as a subsequence counts there only when
// its letters keep together: each letter follows the previous one directly,
// or is reached by skipping a few letters in all (a typo: "devtols" in
// "devtools", "implmntation" in "implementation"). In a short field (a file
// name, the site, the model) a jump to a word start is free as well ("fb" in
// "fix-bug", "bapi2" in "billing-api-v2.zip"); in a prompt it is not, since
// in prose word starts are everywhere: "hello" would find "the help desk
// lost one log", letters strewn across a run that has nothing to do with
// the query.

// maxSkipped is how many letters a term's compact match may skip in all,
// not counting jumps to word starts.
func maxSkipped(termRunes int) int { return 2 + termRunes/4 }

// compactMatch finds the alignment of tm's runes in t that skips the fewest
// letters (a jump to a word start is free when freeJumps is set) and
// returns its rune offsets, or false when even the best one skips more than
// maxSkipped. Without free jumps a match spans at most len+maxSkipped runes,
// so only such windows, each starting at an occurrence of the first rune,
// are aligned: a prompt costs a few windows, not its length times the term's.
func (tm *term) compactMatch(t *text, freeJumps bool) ([]int, bool) {
	m := len(tm.runes)
	if m == 0 {
		return nil, true
	}
	runes := make([]rune, 0, len(t.s))
	var word []bool
	if freeJumps {
		word = make([]bool, 0, len(t.s))
	}
	for i, r := range t.s {
		runes = append(runes, r)
		if freeJumps {
			word = append(word, t.isWordStart(i))
		}
	}
	limit := maxSkipped(m)
	if freeJumps {
		pos, skipped := align(tm.runes, runes, word)
		return pos, pos != nil && skipped <= limit
	}
	var best []int
	bestSkipped := limit + 1
	for lo := range runes {
		if !equalFold(runes[lo], tm.runes[0]) {
			continue
		}
		hi := min(lo+m+limit, len(runes))
		pos, skipped := align(tm.runes, runes[lo:hi], nil)
		if pos == nil || pos[0] != 0 || skipped >= bestSkipped {
			continue
		}
		for k := range pos {
			pos[k] += lo
		}
		best, bestSkipped = pos, skipped
		if skipped == 0 {
			break
		}
	}
	return best, best != nil
}

// align finds the alignment of term in runes that skips the fewest runes,
// a jump to a rune whose word entry is set costing nothing (word may be
// nil), and returns its offsets and what it skipped; nil when term is not a
// subsequence of runes.
func align(term, runes []rune, word []bool) ([]int, int) {
	m, n := len(term), len(runes)
	const inf = math.MaxInt32
	// cost[k][i]: the fewest runes skipped to match term[:k+1] with rune k
	// at i; from[k][i]: where rune k-1 was then.
	cost := make([]int32, m*n)
	from := make([]int32, m*n)
	for i := 0; i < n; i++ {
		cost[i] = inf
		if equalFold(runes[i], term[0]) {
			cost[i] = 0
		}
	}
	for k := 1; k < m; k++ {
		prev, cur, back := cost[(k-1)*n:k*n], cost[k*n:(k+1)*n], from[k*n:(k+1)*n]
		// Over j <= i-2: the cheapest prev[j] (a free jump) and the cheapest
		// prev[j]-j (a paid skip of i-j-1 runes).
		bestFree, bestFreeAt := int32(inf), int32(-1)
		bestPaid, bestPaidAt := int32(inf), int32(-1)
		for i := 0; i < n; i++ {
			if j := i - 2; j >= 0 && prev[j] < inf {
				if prev[j] < bestFree {
					bestFree, bestFreeAt = prev[j], int32(j)
				}
				if p := prev[j] - int32(j); p < bestPaid {
					bestPaid, bestPaidAt = p, int32(j)
				}
			}
			cur[i] = inf
			if !equalFold(runes[i], term[k]) {
				continue
			}
			if i > 0 && prev[i-1] < cur[i] {
				cur[i], back[i] = prev[i-1], int32(i-1)
			}
			if word != nil && word[i] && bestFree < cur[i] {
				cur[i], back[i] = bestFree, bestFreeAt
			}
			if bestPaidAt >= 0 {
				if c := bestPaid + int32(i) - 1; c < cur[i] {
					cur[i], back[i] = c, bestPaidAt
				}
			}
		}
	}
	end, best := -1, int32(inf)
	for i, c := range cost[(m-1)*n:] {
		if c < best {
			end, best = i, c
		}
	}
	if end < 0 {
		return nil, 0
	}
	pos := make([]int, m)
	for k := m - 1; k >= 0; k-- {
		pos[k] = end
		end = int(from[k*n+end])
	}
	return pos, int(best)
}
