package cmddoc

// Closest returns the one of names nearest to name (of those equally near
// the first in alphabetical order), if it is near enough to be a typo of it: at most
// two edits away; "" otherwise.
func Closest(name string, names []string) string {
	best, bestD := "", 3
	for _, n := range names {
		if d := distance(name, n); d < bestD || (d == bestD && n < best && best != "") {
			best, bestD = n, d
		}
	}
	return best
}

// distance is the Levenshtein distance between a and b.
func distance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur := make([]int, len(rb)+1)
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(rb)]
}
