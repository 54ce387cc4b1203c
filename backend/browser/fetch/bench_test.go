package fetch

import (
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// BenchmarkFetchBytes moves a 20 MiB body out of a page by each way that
// keeps the cookies in the browser; -benchmem and the MB/s column are the
// figures in docs/figures.md. Run with:
//
//	go test ./backend/browser -run '^$' -bench FetchBytes -benchtime 3x
func BenchmarkFetchBytes(b *testing.B) {
	const n = 20 << 20
	cachedBody(n)
	chunk, depth := 0, 0 // the defaults
	if v := os.Getenv("FERRY_BENCH_CHUNK"); v != "" {
		chunk, _ = strconv.Atoi(v)
	}
	if v := os.Getenv("FERRY_BENCH_DEPTH"); v != "" {
		depth, _ = strconv.Atoi(v)
	}
	ways := []Way{WayChunkedEval, WayBlobIO, WayDownload, WayStream}
	if v := os.Getenv("FERRY_BENCH_WAYS"); v != "" {
		ways = nil
		for _, w := range strings.Split(v, ",") {
			ways = append(ways, Way(w))
		}
	}
	for _, way := range ways {
		b.Run(string(way), func(b *testing.B) {
			p := loggedIn(b)
			ctx := testCtx(b, 10*time.Minute)
			b.SetBytes(n)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				rc, _, err := Bytes(ctx, p, fixture.URL+"/bytes?n="+strconv.Itoa(n), BytesOptions{Way: way, ChunkBytes: chunk, ReadsInFlight: depth})
				if err != nil {
					b.Fatal(err)
				}
				got, err := io.Copy(io.Discard, rc)
				rc.Close()
				if err != nil || got != n {
					b.Fatalf("read %d bytes: %v", got, err)
				}
			}
		})
	}
	// The same bytes over loopback HTTP straight into Go: the machine's
	// ceiling, for comparison.
	b.Run("loopback-http-baseline", func(b *testing.B) {
		b.SetBytes(n)
		for i := 0; i < b.N; i++ {
			req, _ := http.NewRequest("GET", fixture.URL+"/bytes?n="+strconv.Itoa(n), nil)
			req.AddCookie(&http.Cookie{Name: "session", Value: "s3cret"})
			res, err := http.DefaultClient.Do(req)
			if err != nil {
				b.Fatal(err)
			}
			got, _ := io.Copy(io.Discard, res.Body)
			res.Body.Close()
			if got != n {
				b.Fatalf("read %d", got)
			}
		}
	})
}
