package search

import (
	"context"
	"testing"
	"time"
)

func TestAdhoc(t *testing.T) {
	idx := benchIndex100k(t)
	ctx := context.Background()
	for _, q := range []string{"postgres migration", "react"} {
		idx.cache.reset()
		for i := 1; i <= len(q); i++ {
			debugStage1, debugStage2 = 0, 0
			c0, w0 := cpuTime(), time.Now()
			r, _ := idx.Search(ctx, Query{Text: q[:i]})
			t.Logf("%-22q total=%6d cpu=%6.1fms wall=%6.1fms s1=%v s2=%v", q[:i], r.Total, float64(cpuTime()-c0)/1e6, float64(time.Since(w0))/1e6, debugStage1, debugStage2)
		}
	}
}
