package search

import (
	"context"
	"os"
	"testing"
)

func TestAdhocProf(t *testing.T) {
	idx := benchIndex100k(t)
	ctx := context.Background()
	q := os.Getenv("Q")
	for i := 0; i < 20; i++ {
		idx.cache.reset()
		idx.Search(ctx, Query{Text: q})
	}
}
