package chatgpt_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// BenchmarkRetrieveZip brings 10 MiB and 100 MiB sandbox zips home the way
// `ferry code` and `ferry retrieve` do (mint, an in-page way — the default
// of a browser that shares Ferry's files (url-download), the default of
// one that does not (fetch-stream, over the DevTools connection) and the
// other ways, see benchWays —, verify, atomic save with sidecar) and, in
// the same run, the same bytes
// over loopback HTTP straight to disk (the machine's ceiling). Beside MB/s
// it reports memory: the Go process's peak RSS above its RSS before the
// run (VmHWM after resetting it through /proc/self/clear_refs; the
// simulator serves from this process too, in both sub-benchmarks), and the
// browser's: the peak of the summed RSS of Chromium and all its child
// processes (sampled every 10 ms) above the sum before the run.
//
//	go test ./backend/provider/chatgpt -run '^$' -bench RetrieveZip -benchtime 1x
func BenchmarkRetrieveZip(b *testing.B) {
	for _, size := range []int64{10 << 20, 100 << 20} {
		b.Run(fmt.Sprintf("%dMiB", size>>20), func(b *testing.B) { benchRetrieve(b, size) })
	}
}

func benchRetrieve(b *testing.B, size int64) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	h := providertest.Shared(b)
	h.Server.Reset()
	th := &tabHolder{}
	if err := th.open(ctx, h); err != nil {
		b.Fatal(err)
	}
	defer th.close()
	a := th.a
	res, z := askForZip(ctx, b, a, fmt.Sprintf("%dMiB", size>>20))
	dir := b.TempDir()
	browserPID := h.Browser.PID()

	b.Run("loopback-http-to-disk", func(b *testing.B) {
		m := startMemWatch(b, browserPID)
		for i := 0; i < b.N; i++ {
			mu, _ := chatgpt.MintURL(res.ConversationID, z.MessageIDs[0], z.Path)
			status, body, err := a.Fetcher().Mint(ctx, mu)
			if err != nil {
				b.Fatal(err)
			}
			minted, err := chatgpt.ParseMintResponse(status, body)
			if err != nil {
				b.Fatal(err)
			}
			code, n, err := loopbackToDisk(ctx, h, minted.DownloadURL, dir)
			if err != nil || code != 200 || n < size*9/10 {
				b.Fatalf("HTTP %d, %d bytes, %v", code, n, err)
			}
			b.SetBytes(n)
		}
		m.report(b)
	})
	for _, way := range benchWays() {
		name := "retrieve-" + string(way)
		switch way {
		case fetch.DefaultWay:
			name += "-default"
		case fetch.WayStream:
			name += "-unshared-default"
		}
		b.Run(name, func(b *testing.B) {
			f := a.Fetcher(chatgpt.WithWay(way), chatgpt.WithDownloadDir(dir))
			runtime.GC()
			m := startMemWatch(b, browserPID)
			for i := 0; i < b.N; i++ {
				out := filepath.Join(dir, fmt.Sprintf("run-%d", i))
				saved, err := artifact.Retrieve(ctx, chatgpt.NewSandbox(f), res.ConversationID, z, out, artifact.Provenance{Site: chatgpt.ID})
				if err != nil {
					b.Fatal(err)
				}
				if saved.Verdict == nil || !saved.Verdict.OK || saved.Verdict.Size < size*9/10 {
					b.Fatalf("saved %+v", saved)
				}
				b.SetBytes(saved.Verdict.Size)
				os.RemoveAll(out)
			}
			m.report(b)
		})
	}
}

// benchWays are the ways measured: the default first, then the default of
// a browser that does not share Ferry's files, then the other ways that
// are fast enough for 100 MiB; FERRY_BENCH_WAYS (comma-separated
// fetch.Way names, e.g. "blob-io,chunked-eval") picks others.
func benchWays() []fetch.Way {
	if v := os.Getenv("FERRY_BENCH_WAYS"); v != "" {
		var out []fetch.Way
		for _, w := range strings.Split(v, ",") {
			out = append(out, fetch.Way(strings.TrimSpace(w)))
		}
		return out
	}
	out := []fetch.Way{fetch.DefaultWay}
	for _, w := range []fetch.Way{fetch.WayURLDownload, fetch.WayStream, fetch.WayDownload, fetch.WayBlobIO} {
		if w != fetch.DefaultWay {
			out = append(out, w)
		}
	}
	return out
}

// memWatch follows the memory of this process and of the browser's process
// tree during one sub-benchmark.
type memWatch struct {
	goBase      int64 // VmRSS before, KiB
	browserPID  int
	browserBase int64 // summed VmRSS before, KiB
	mu          sync.Mutex
	browserPeak int64
	stop        chan struct{}
	done        chan struct{}
}

func startMemWatch(b *testing.B, browserPID int) *memWatch {
	b.Helper()
	// "5" resets VmHWM to the current RSS (Linux ≥ 4.0).
	if err := os.WriteFile("/proc/self/clear_refs", []byte("5"), 0); err != nil {
		b.Logf("reset peak RSS: %v (the Go peak is the process's lifetime peak)", err)
	}
	m := &memWatch{goBase: procStatusKiB(os.Getpid(), "VmRSS"), browserPID: browserPID, stop: make(chan struct{}), done: make(chan struct{})}
	m.browserBase = treeRSS(browserPID)
	m.browserPeak = m.browserBase
	go func() {
		defer close(m.done)
		t := time.NewTicker(10 * time.Millisecond)
		defer t.Stop()
		for {
			select {
			case <-m.stop:
				return
			case <-t.C:
				if r := treeRSS(m.browserPID); r > 0 {
					m.mu.Lock()
					m.browserPeak = max(m.browserPeak, r)
					m.mu.Unlock()
				}
			}
		}
	}()
	b.ResetTimer()
	return m
}

func (m *memWatch) report(b *testing.B) {
	b.StopTimer()
	close(m.stop)
	<-m.done
	goPeak := procStatusKiB(os.Getpid(), "VmHWM")
	b.ReportMetric(float64(goPeak-m.goBase)/1024, "go-extra-MiB")
	b.ReportMetric(float64(goPeak)/1024, "go-peak-MiB")
	if m.browserPID > 0 {
		b.ReportMetric(float64(m.browserPeak-m.browserBase)/1024, "browser-extra-MiB")
		b.ReportMetric(float64(m.browserPeak)/1024, "browser-peak-MiB")
	}
}

// procStatusKiB reads a "Field: N kB" line of /proc/<pid>/status (0 when
// absent).
func procStatusKiB(pid int, field string) int64 {
	f, err := os.Open(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), field+":"); ok {
			n, _ := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return n
		}
	}
	return 0
}

// loopbackToDisk GETs a download address over loopback HTTP with the
// session cookie, straight into a synced file of dir (then removed): the
// machine's ceiling beside the browser's ways.
func loopbackToDisk(ctx context.Context, h *providertest.Harness, addr, dir string) (int, int64, error) {
	req, _ := http.NewRequestWithContext(ctx, "GET", addr, nil)
	req.AddCookie(h.Server.SessionCookie(sim.ChatGPT))
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		return 0, 0, err
	}
	defer resp.Body.Close()
	out, err := os.CreateTemp(dir, "ceiling-*")
	if err != nil {
		return resp.StatusCode, 0, err
	}
	defer os.Remove(out.Name())
	n, err := io.Copy(out, resp.Body)
	if err == nil {
		err = out.Sync()
	}
	return resp.StatusCode, n, errors.Join(err, out.Close())
}

// treeRSS sums VmRSS over pid and all its descendants (the browser process,
// its renderers, GPU and utility processes).
func treeRSS(pid int) int64 {
	var sum int64
	for _, p := range procTree(pid, nil) {
		sum += procStatusKiB(p, "VmRSS")
	}
	return sum
}

// procTree lists pid and all its descendants, from /proc/<pid>/stat; with
// stat not nil it is also given each process's stat fields after the
// command name (ppid is fields[1]).
func procTree(pid int, stat func(p int, fields []string)) []int {
	entries, err := os.ReadDir("/proc")
	if err != nil || pid <= 0 {
		return nil
	}
	children := map[int][]int{}
	for _, e := range entries {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		raw, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// The command name in parentheses may hold spaces: fields start
		// after the last ')'.
		s := string(raw)
		i := strings.LastIndexByte(s, ')')
		if i < 0 {
			continue
		}
		fields := strings.Fields(s[i+1:])
		if len(fields) < 2 {
			continue
		}
		ppid, _ := strconv.Atoi(fields[1])
		children[ppid] = append(children[ppid], p)
		if stat != nil {
			stat(p, fields)
		}
	}
	var out []int
	for stack := []int{pid}; len(stack) > 0; {
		p := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], children[p]...)
		out = append(out, p)
	}
	return out
}
