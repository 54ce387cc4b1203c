package search

import (
	"context"
	"testing"
)

func BenchmarkAdhocSingle(b *testing.B) {
	idx := benchIndex100k(b)
	idx.cfg.workers = 1
	ctx := context.Background()
	for i := 0; i < b.N; i++ {
		idx.cache.reset()
		idx.Search(ctx, Query{Text: "p"})
	}
}
