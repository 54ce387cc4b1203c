package search

import "testing"

func TestTierPointsFitTheCandidate(t *testing.T) {
	t.Run("a term that matches every field at a word start scores maxTermPoints", func(t *testing.T) {
		if got := unknown.points(); got != maxTermPoints {
			t.Fatalf("best tiers score %d, maxTermPoints is %d", got, maxTermPoints)
		}
	})
}
