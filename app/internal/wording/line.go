package wording

import (
	"strings"
	"unicode/utf8"
)

// OneLine folds whitespace and cuts s to n characters.
func OneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}
