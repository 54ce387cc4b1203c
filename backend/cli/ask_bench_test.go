package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// BenchmarkAskLastByteToStdout measures what a user waits for once a site
// has finished: the time from the simulator's last answer-stream byte to the
// complete answer on the stdout of `ferry ask`, the built binary attached to
// a headless Chromium with --browser-url. The stream path is each site's
// decoded network stream; the DOM path is the same site with stream capture
// disabled by a site override in settings, so the DOM rules decide the end
// (the site's finished signals confirmed over a few samples).
// Goals: at most 150 ms median on the stream path, 400 ms on the DOM path.
//
// How the last byte is timed: the benchmark serves the simulator's own
// handler (sim.Server.Handler) from an httptest TLS server in this process
// and wraps the response of each site's answer-stream request; the time
// after its last Flush (every simulated stream flushes each frame) is the
// moment the last byte was handed to the connection. The stdout side is
// the time the benchmark read the answer's final newline from the child's
// pipe. Both clocks are this process's monotonic clock.
//
// Each op is one `ferry ask` on a fresh chat (ns/op is that whole run: a
// process start, attach, compose, send, wait, plus the navigation to the
// new chat); the window above is reported as p50-ms and p90-ms per site,
// and logged (-v) for each path over all sites. Use a fixed count for
// stable percentiles:
//
//	go test ./backend/cli -run '^$' -bench AskLastByteToStdout -benchtime 20x -v
func BenchmarkAskLastByteToStdout(b *testing.B) {
	env := startBenchSim(b)
	pooled := map[string][]time.Duration{}
	for _, path := range []string{"stream", "dom"} {
		dataDir := b.TempDir()
		if path == "dom" {
			var entries []json.RawMessage
			for _, id := range sim.Sites() {
				entries = append(entries, json.RawMessage(`{"id":"`+id+`","stream":{"disabled":true}}`))
			}
			s := config.Defaults()
			s.Sites = entries
			if err := config.Save(filepath.Join(dataDir, "settings.json"), s); err != nil {
				b.Fatal(err)
			}
		}
		for _, id := range sim.Sites() {
			st, err := site.Builtin().Get(id)
			if err != nil {
				b.Fatal(err)
			}
			b.Run(path+"/"+id, func(b *testing.B) {
				if path == "stream" && st.Stream == nil {
					// Its stream path is the site as shipped: with no stream
					// Ferry decodes, the DOM rules end the turn there too. It
					// runs, and stays out of the stream path's pooled figure.
					b.Logf("%s has no stream Ferry decodes: its stream path is its DOM rules", id)
				}
				var took []time.Duration
				for i := 0; b.Loop(); i++ {
					took = append(took, env.lastByteToStdout(b, id, path, dataDir, i))
				}
				if path == "dom" || st.Stream != nil {
					pooled[path] = append(pooled[path], took...)
				}
				reportPercentiles(b, took)
			})
		}
	}
	for _, path := range []string{"stream", "dom"} {
		if d := pooled[path]; len(d) > 0 {
			b.Logf("%s path, all sites, %d asks: p50 %s p90 %s", path, len(d), percentile(d, 50), percentile(d, 90))
		}
	}
}

// isAnswerStream reports whether r is a site's answer-stream request: the
// request Ferry's own capture takes for the site's stream
// (site.CaptureMatches, so the benchmark cannot drift from what production
// reads), or, for a site with no stream Ferry decodes, the simulator's
// answer request named in the site's simulator notes.
func isAnswerStream(r *http.Request) bool {
	if r.Method != http.MethodPost {
		return false
	}
	u := "https://" + r.Host + r.URL.Path
	for _, id := range sim.Sites() {
		if s, err := site.Builtin().Get(id); err == nil && s.CaptureMatches(r.Method, u) {
			return true
		}
	}
	return r.Host == sim.Hosts[sim.AIStudio] && r.URL.Path == "/_/ms/GenerateContent"
}

// benchSim is the simulator behind a recording handler and a browser on it.
type benchSim struct {
	srv     *sim.Server
	browser *browser.Browser
	tab     *browser.Page
	url     string

	mu         sync.Mutex
	lastByte   time.Time // after the last flush of the latest answer stream
	lastSocket time.Time // after the last write to a page's WebSocket
	streams    int       // answer streams served
}

func startBenchSim(b *testing.B) *benchSim {
	b.Helper()
	e := &benchSim{srv: sim.New(providertest.DefaultSimOptions...)}
	inner := e.srv.Handler()
	ts := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/p3/ws/user/") {
			// ChatGPT's user socket, where a handed-off turn ends.
			inner.ServeHTTP(&hijackTimer{ResponseWriter: w, e: e}, r)
			return
		}
		if !isAnswerStream(r) {
			inner.ServeHTTP(w, r)
			return
		}
		rec := &flushTimer{ResponseWriter: w}
		inner.ServeHTTP(rec, r)
		e.mu.Lock()
		e.lastByte, e.streams = rec.last, e.streams+1
		e.mu.Unlock()
	}))
	ts.EnableHTTP2 = true
	ts.StartTLS()
	b.Cleanup(ts.Close)

	// The rules of sim.Server.ChromiumFlags, for this server's port.
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	var rules []string
	for _, id := range sim.Sites() {
		rules = append(rules, "MAP "+sim.Hosts[id]+" 127.0.0.1:"+port)
	}
	rules = append(rules, "MAP * ~NOTFOUND", "EXCLUDE 127.0.0.1")
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	br, err := browser.Launch(ctx, b.TempDir(), launch.WithBinary(providertest.ChromiumBin), launch.Headless(),
		launch.WithArgs("--host-resolver-rules="+strings.Join(rules, ","), "--ignore-certificate-errors"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() {
		cctx, stop := context.WithTimeout(context.Background(), 15*time.Second)
		defer stop()
		_ = br.Close(cctx)
	})
	e.browser, e.url = br, br.Endpoint()
	// One tab, the visible one of its own window, as a user's is.
	bc, err := br.NewContext(ctx)
	if err != nil {
		b.Fatal(err)
	}
	if e.tab, err = bc.OpenTab(ctx, "about:blank"); err != nil {
		b.Fatal(err)
	}
	return e
}

// lastByteToStdout runs one `ferry ask` on a fresh chat of site and returns
// the time from the last byte of the answer stream to the answer on stdout.
func (e *benchSim) lastByteToStdout(b *testing.B, siteID, path, dataDir string, i int) time.Duration {
	b.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()

	prompt := fmt.Sprintf("Benchmark question %d on the %s path", i, path)
	want := providertest.NormalAnswer(prompt) + "\n"
	took, got := e.askTimed(ctx, b, siteID, dataDir, prompt)
	if string(got) != want {
		b.Fatalf("%s (%s path) printed %q, want %q", siteID, path, got, want)
	}
	return took
}

// askTimed runs `ferry ask` with prompt on the tab (a fresh chat of site)
// and returns the time from the answer's last byte at the simulator (on its
// response, or on the page's WebSocket for a turn handed off there) to the
// last byte on stdout, and what was printed.
func (e *benchSim) askTimed(ctx context.Context, b *testing.B, siteID, dataDir, prompt string) (time.Duration, []byte) {
	b.Helper()
	if err := e.tab.Navigate(ctx, sim.URL(siteID, "/")); err != nil {
		b.Fatal(err)
	}
	e.mu.Lock()
	e.lastByte, e.lastSocket, e.streams = time.Time{}, time.Time{}, 0
	e.mu.Unlock()
	sent := e.srv.SubmissionCount(siteID)
	cmd := exec.CommandContext(ctx, binary, "ask", "--site", siteID, "--tab", e.tab.ID(), "--browser-url", e.url,
		"--data-dir", dataDir, "--timeout", "45s", "--prompt", prompt)
	cmd.Env = hermeticEnv(b)
	var errb bytes.Buffer
	cmd.Stderr = &errb
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	var (
		got     []byte
		printed time.Time
		buf     = make([]byte, 64<<10)
	)
	for {
		n, rerr := out.Read(buf)
		got = append(got, buf[:n]...)
		if n > 0 {
			printed = time.Now() // the answer ends with the last bytes printed
		}
		if rerr != nil {
			break
		}
	}
	if err := cmd.Wait(); err != nil {
		b.Fatalf("ferry ask on %s: %v\n%s", siteID, err, errb.String())
	}
	if n := e.srv.SubmissionCount(siteID) - sent; n != 1 {
		b.Fatalf("%s received %d submissions, want 1", siteID, n)
	}
	e.mu.Lock()
	last, streams := e.lastByte, e.streams
	if e.lastSocket.After(last) {
		last = e.lastSocket
	}
	e.mu.Unlock()
	if streams != 1 || last.IsZero() {
		b.Fatalf("%s served %d answer streams (last byte at %v), want 1", siteID, streams, last)
	}
	return printed.Sub(last), got
}

// BenchmarkAskLongAnswerLastByteToStdout times the same 100 KiB ChatGPT
// answer from its last byte at the simulator to its last byte on the stdout
// of `ferry ask` (as BenchmarkAskLastByteToStdout), streamed whole on the
// conversation response (sse) and handed off to the page's WebSocket after
// two chunks (handed-off: stream_handoff, then socket items), where the
// last byte is the socket's last write. Both print the same answer.
//
//	go test ./backend/cli -run '^$' -bench AskLongAnswerLastByte -benchtime 10x
func BenchmarkAskLongAnswerLastByteToStdout(b *testing.B) {
	env := startBenchSim(b)
	dataDir := b.TempDir()
	printed := ""
	for _, tc := range []struct{ name, scenario string }{{"sse", sim.ScenarioLong}, {"handed-off", sim.ScenarioStreamHandoff}} {
		b.Run(tc.name, func(b *testing.B) {
			var took []time.Duration
			for b.Loop() {
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				prompt := "A long benchmark answer\n" + sim.Directive(tc.scenario, "size", "100KiB", "chunk", "1024", "interval", "2ms")
				d, got := env.askTimed(ctx, b, sim.ChatGPT, dataDir, prompt)
				cancel()
				if len(got) < 100<<10 || printed != "" && string(got) != printed {
					b.Fatalf("printed %d bytes, not the 100 KiB answer the other path printed", len(got))
				}
				printed = string(got)
				took = append(took, d)
			}
			reportPercentiles(b, took)
		})
	}
}

// hijackTimer notes when a WebSocket the simulator serves (a hijacked
// connection) last wrote to its client.
type hijackTimer struct {
	http.ResponseWriter
	e *benchSim
}

func (h *hijackTimer) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, rw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err != nil {
		return nil, nil, err
	}
	tc := &timedConn{Conn: c, e: h.e}
	return tc, bufio.NewReadWriter(rw.Reader, bufio.NewWriter(tc)), nil
}

type timedConn struct {
	net.Conn
	e *benchSim
}

func (c *timedConn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.e.mu.Lock()
	c.e.lastSocket = time.Now()
	c.e.mu.Unlock()
	return n, err
}

// flushTimer notes when the wrapped response last pushed bytes to the
// connection. Flush keeps the stream streaming (the simulator asserts
// http.Flusher on its writer).
type flushTimer struct {
	http.ResponseWriter
	last time.Time
}

func (f *flushTimer) Write(p []byte) (int, error) {
	n, err := f.ResponseWriter.Write(p)
	f.last = time.Now()
	return n, err
}

func (f *flushTimer) Flush() {
	if fl, ok := f.ResponseWriter.(http.Flusher); ok {
		fl.Flush()
	}
	f.last = time.Now()
}

func (f *flushTimer) Unwrap() http.ResponseWriter { return f.ResponseWriter }

func reportPercentiles(b *testing.B, d []time.Duration) {
	b.ReportMetric(float64(percentile(d, 50).Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(percentile(d, 90).Microseconds())/1000, "p90-ms")
}

// percentile is the nearest-rank percentile p of d.
func percentile(d []time.Duration, p int) time.Duration {
	if len(d) == 0 {
		return 0
	}
	s := slices.Clone(d)
	slices.Sort(s)
	k := (p*len(s) + 99) / 100
	return s[max(k, 1)-1]
}
