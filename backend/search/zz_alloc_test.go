package search

import (
	"context"
	"fmt"
	"os"
	"testing"
)

func TestZZAllocs(t *testing.T) {
	if os.Getenv("ZZ") == "" {
		t.Skip()
	}
	idx := benchIndex100k(t)
	ctx := context.Background()
	var allocs, bytes float64
	n := 0
	for _, q := range typedQueries[:5] {
		idx.cache.reset()
		idx.Search(ctx, Query{Text: q[:1]})
		for i := 2; i <= len(q); i++ {
			r := testing.Benchmark(func(b *testing.B) {
				b.ReportAllocs()
				for j := 0; j < b.N; j++ {
					idx.Search(ctx, Query{Text: q[:i]})
				}
			})
			allocs += float64(r.AllocsPerOp())
			bytes += float64(r.AllocedBytesPerOp())
			n++
		}
	}
	fmt.Printf("typing keystroke: %.0f allocs/op, %.0f KB/op\n", allocs/float64(n), bytes/float64(n)/1024)
}
