//go:build gui

package guitest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/store"
)

// The desktop figures of the desktop issue, measured as benchmarks (never
// as timed tests: the machine is shared). Run under Xvfb and a session bus:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- \
//	  go test -tags gui -run '^$' -bench Desktop -benchtime 5x ./app/guitest/

// BenchmarkDesktopColdStart starts the production binary on a fresh data
// directory and times exec → the mounted frontend calling
// System.FrontendReady (the window is interactive then), as seen from this
// process. After 3 s of idling it sums the resident memory of the app and
// its WebKit helper processes (its process group).
func BenchmarkDesktopColdStart(b *testing.B) {
	benchRequireDisplay(b)
	requireFrontendBuilt(b)
	bin := buildApp(b, productionTags)
	var ready []time.Duration
	var appMiB, webMiB float64
	b.ResetTimer()
	for range b.N {
		dir := b.TempDir()
		t0 := time.Now()
		p := startApp(b, bin, isolatedEnv(dir))
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		if _, err := p.waitLine(ctx, `msg="frontend ready"`); err != nil {
			cancel()
			b.Fatal(err)
		}
		cancel()
		ready = append(ready, time.Since(t0))
		b.StopTimer()
		time.Sleep(3 * time.Second)
		a, w, err := groupRSS(p.cmd.Process.Pid)
		if err != nil {
			b.Fatal(err)
		}
		appMiB += a
		webMiB += w
		_ = p.cmd.Process.Signal(syscall.SIGTERM)
		if _, err := p.waitExit(closeWithin); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
	b.StopTimer()
	p50, p95 := percentiles(ready)
	b.ReportMetric(float64(p50.Milliseconds()), "ready-p50-ms")
	b.ReportMetric(float64(p95.Milliseconds()), "ready-p95-ms")
	b.ReportMetric(appMiB/float64(b.N), "idle-app-MiB")
	b.ReportMetric(webMiB/float64(b.N), "idle-webkit-MiB")
}

// BenchmarkDesktopHistorySearch100k seeds 100 000 runs, opens the real
// frontend of the dev binary in headless Chromium and types queries one
// character at a time through the same bound call the History view makes
// on each keystroke (Sessions.List over the Wails IPC), timing each call
// from the page: search, IPC and JSON of the first page of results.
func BenchmarkDesktopHistorySearch100k(b *testing.B) {
	benchRequireDisplay(b)
	requireFrontendBuilt(b)
	bin := buildApp(b, devTags)
	dir := b.TempDir()
	seedMany(b, filepath.Join(dir, "data"), 100_000)
	app := startDevApp(b, bin, dir)
	defer app.stop(b)
	page := openShell(b, launchBrowser(b), app.url)
	page = page.Timeout(10 * time.Minute)

	// The app builds the search index in the background at start; the
	// first query waits for it. Time the build once, apart from the typing.
	t0 := time.Now()
	if _, err := page.Eval(`() => window.go.app.Sessions.List('warm', '', '', 100)`); err != nil {
		b.Fatal(err)
	}
	firstQuery := time.Since(t0)

	queries := []string{"kubernetes rollout", "question 4711", "ferry zip", "claude answer", "deployment status", "topic 42 export"}
	var typing, fresh []time.Duration
	b.ResetTimer()
	for i := range b.N {
		q := queries[i%len(queries)]
		res, err := page.Eval(`async (q) => {
			const out = [];
			for (let n = 1; n <= q.length; n++) {
				const t0 = performance.now();
				const r = await window.go.app.Sessions.List(q.slice(0, n), '', '', 100);
				out.push(performance.now() - t0);
				if (!r || typeof r.total !== 'number') throw new Error('no list');
			}
			return out.join(',');
		}`, q)
		if err != nil {
			b.Fatal(err)
		}
		for n, f := range strings.Split(res.Value.Str(), ",") {
			ms, err := strconv.ParseFloat(f, 64)
			if err != nil {
				b.Fatal(err)
			}
			d := time.Duration(ms * float64(time.Millisecond))
			if n == 0 {
				fresh = append(fresh, d)
			} else {
				typing = append(typing, d)
			}
		}
	}
	b.StopTimer()
	t50, t95 := percentiles(typing)
	f50, f95 := percentiles(fresh)
	b.ReportMetric(float64(t50.Microseconds())/1000, "typing-p50-ms")
	b.ReportMetric(float64(t95.Microseconds())/1000, "typing-p95-ms")
	b.ReportMetric(float64(f50.Microseconds())/1000, "fresh-p50-ms")
	b.ReportMetric(float64(f95.Microseconds())/1000, "fresh-p95-ms")
	b.ReportMetric(float64(firstQuery.Milliseconds()), "first-query-ms")
}

// seedMany writes n runs through the job repository before the app opens
// the store.
func seedMany(tb testing.TB, dataDir string, n int) {
	tb.Helper()
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(dataDir, "db"), store.WithSyncWrites(false))
	if err != nil {
		tb.Fatalf("open the store to seed it: %v", err)
	}
	defer st.Close()
	repo, err := job.OpenRepo(ctx, st)
	if err != nil {
		tb.Fatal(err)
	}
	sites := []string{"chatgpt", "claude", "gemini", "grok", "deepseek"}
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		_, err := repo.Create(ctx, &job.Session{
			ID:      fmt.Sprintf("s%06d", i),
			Site:    sites[i%len(sites)],
			Prompt:  fmt.Sprintf("question %d about topic %d: kubernetes rollout, ferry zip export", i, i%97),
			Answer:  fmt.Sprintf("answer %d: restart the deployment, then check the rollout status of revision %d", i, i%13),
			State:   job.StateDone,
			Created: base.Add(time.Duration(i) * time.Second),
		})
		if err != nil {
			tb.Fatal(err)
		}
	}
}

// groupRSS sums VmRSS of the process group led by pid, split into the app
// itself and its WebKit helper processes, in MiB.
func groupRSS(pid int) (app, webkit float64, err error) {
	ents, err := os.ReadDir("/proc")
	if err != nil {
		return 0, 0, err
	}
	for _, e := range ents {
		p, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		stat, err := os.ReadFile(filepath.Join("/proc", e.Name(), "stat"))
		if err != nil {
			continue
		}
		// Fields after the command name, which is in parentheses and may hold spaces.
		rest := string(stat[strings.LastIndexByte(string(stat), ')')+2:])
		f := strings.Fields(rest)
		if len(f) < 3 {
			continue
		}
		if pgrp, _ := strconv.Atoi(f[2]); pgrp != pid {
			continue
		}
		kb := vmRSSKiB(filepath.Join("/proc", e.Name(), "status"))
		if p == pid {
			app += kb / 1024
		} else {
			webkit += kb / 1024
		}
	}
	return app, webkit, nil
}

func vmRSSKiB(statusFile string) float64 {
	b, err := os.ReadFile(statusFile)
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			f := strings.Fields(v)
			if len(f) > 0 {
				n, _ := strconv.ParseFloat(f[0], 64)
				return n
			}
		}
	}
	return 0
}

// percentiles returns the 50th and 95th percentile of ds (nearest rank).
func percentiles(ds []time.Duration) (p50, p95 time.Duration) {
	if len(ds) == 0 {
		return 0, 0
	}
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	at := func(q float64) time.Duration {
		i := int(q*float64(len(s))+0.5) - 1
		return s[max(0, min(i, len(s)-1))]
	}
	return at(0.50), at(0.95)
}

func benchRequireDisplay(b *testing.B) {
	b.Helper()
	if os.Getenv("DISPLAY") == "" {
		b.Fatal(`no DISPLAY: run under Xvfb and a session bus: xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui -run '^$' -bench Desktop ./app/guitest/`)
	}
}
