package search

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"testing"
	"time"
)

const benchDocs = 100_000

var (
	benchOnce  sync.Once
	benchIndex *Index
)

// benchIndex100k builds the shared 100k-run index once per test binary.
func benchIndex100k(tb testing.TB) *Index {
	benchOnce.Do(func() {
		benchIndex = New()
		if err := benchIndex.Add(genDocs(benchDocs)...); err != nil {
			tb.Fatalf("build index: %v", err)
		}
	})
	return benchIndex
}

// typedQueries are searches as typed: every prefix of each, in order.
var typedQueries = []string{
	"react", "postgres migration", "api v2 zip", "kubernetes", "fix login form",
	"websocket", "dockerfile", "rate limiter", "billing-api", "retry logic timeout",
	"terraform", "csv export", "gateway worker", "session store redis", "unit tests",
}

// freshQueries are searches run with an empty typing cache.
var freshQueries = []string{
	"r", "e", "t", "re", "zip", "api", "react", "gpt", "claude", "postgres",
	"kubernetes ingress", "fix login", "checkout-api-v2", "report pdf", "zzqx",
	"handler error", "dark mode", "glm", "websocket reconnect", "sqlite schema",
}

// latencies measures each query; typing runs the prefixes of every query in
// order and keeps the ones that extend the previous keystroke.
func latencies(tb testing.TB, idx *Index, typing bool) (out, cpuSpent []time.Duration) {
	ctx := context.Background()
	run := func(q string) time.Duration {
		start, cpu := time.Now(), cpuTime()
		if _, err := idx.Search(ctx, Query{Text: q}); err != nil {
			tb.Fatalf("search %q: %v", q, err)
		}
		d := time.Since(start)
		cpuSpent = append(cpuSpent, cpuTime()-cpu)
		return d
	}
	if typing {
		for _, q := range typedQueries {
			idx.cache.reset()
			for i := 1; i <= len(q); i++ {
				d := run(q[:i])
				if i > 1 {
					out = append(out, d)
				} else {
					cpuSpent = cpuSpent[:len(cpuSpent)-1]
				}
			}
		}
		return out, cpuSpent
	}
	for _, q := range freshQueries {
		idx.cache.reset()
		out = append(out, run(q))
	}
	return out, cpuSpent
}

func percentile(ds []time.Duration, p float64) float64 {
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(float64(len(s)-1) * p)
	return float64(s[i].Microseconds()) / 1000
}

func reportLatencies(b *testing.B, ds, cpu []time.Duration) {
	b.ReportMetric(percentile(ds, 0.50), "p50-ms")
	b.ReportMetric(percentile(ds, 0.95), "p95-ms")
	b.ReportMetric(percentile(ds, 0.99), "p99-ms")
	b.ReportMetric(percentile(cpu, 0.95), "p95-cpu-ms")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkSearchTyping100k: keystrokes that extend the previous query.
func BenchmarkSearchTyping100k(b *testing.B) {
	idx := benchIndex100k(b)
	b.ResetTimer()
	var all, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		d, c := latencies(b, idx, true)
		all, cpu = append(all, d...), append(cpu, c...)
	}
	reportLatencies(b, all, cpu)
}

// BenchmarkSearchFresh100k: queries with nothing to narrow from.
func BenchmarkSearchFresh100k(b *testing.B) {
	idx := benchIndex100k(b)
	b.ResetTimer()
	var all, cpu []time.Duration
	for i := 0; i < b.N; i++ {
		d, c := latencies(b, idx, false)
		all, cpu = append(all, d...), append(cpu, c...)
	}
	reportLatencies(b, all, cpu)
}

// BenchmarkIndexBuild100k: time and retained memory of indexing 100k runs.
func BenchmarkIndexBuild100k(b *testing.B) {
	docs := genDocs(benchDocs)
	var before, after runtime.MemStats
	var heap uint64
	var cpu time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		runtime.GC()
		runtime.ReadMemStats(&before)
		c0 := cpuTime()
		idx := New()
		if err := idx.Add(docs...); err != nil {
			b.Fatal(err)
		}
		cpu += cpuTime() - c0
		runtime.GC()
		runtime.ReadMemStats(&after)
		heap = after.HeapAlloc - before.HeapAlloc
		runtime.KeepAlive(idx)
	}
	b.ReportMetric(float64(heap)/(1<<20), "MB-heap")
	b.ReportMetric(cpu.Seconds()/float64(b.N), "cpu-s/op")
}
