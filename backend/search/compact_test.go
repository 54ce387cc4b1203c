package search

import (
	"slices"
	"testing"
)

func TestCompactMatch(t *testing.T) {
	cases := []struct {
		term, field string
		prose       bool
		want        []int // nil: no match
	}{
		{"devtols", "open the devtools panel", true, []int{9, 10, 11, 12, 14, 15, 16}},
		{"implmntation", "the implementation plan", true, []int{4, 5, 6, 7, 9, 11, 12, 13, 14, 15, 16, 17}},
		{"hello", "the help desk lost one log", true, nil},
		{"ledger", "let every daily gauge report", true, nil},
		// the closest of several occurrences is the one kept
		{"dvtl", "d v t l and dvtl", true, []int{12, 13, 14, 15}},
		{"fb", "fix-bug", false, []int{0, 4}},
		{"fb", "fix-bug", true, nil},
		{"bapi2", "billing-api-v2.zip", false, []int{0, 8, 9, 10, 13}},
		{"zq", "zip", false, nil},
	}
	for _, tc := range cases {
		terms, err := parseTerms(tc.term)
		if err != nil || len(terms) != 1 {
			t.Fatalf("parse %q: %v", tc.term, err)
		}
		field := prepare(tc.field, 1<<10, false, false)
		got, ok := terms[0].compactMatch(&field, !tc.prose)
		if ok != (tc.want != nil) || !slices.Equal(got, tc.want) {
			t.Errorf("%q in %q (prose %v) = %v, %v; want %v", tc.term, tc.field, tc.prose, got, ok, tc.want)
		}
	}
}
