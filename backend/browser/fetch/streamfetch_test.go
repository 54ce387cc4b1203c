package fetch

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/cdp"
	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/errs"
)

// streamingWays are the ways that never hold the body whole.
var streamingWays = []Way{WayStream, WayURLDownload}

func TestStreamingWaysDeliverTheExactBodyAndKeepToTheCap(t *testing.T) {
	t.Parallel()            // own tabs in own browser contexts
	const n = 1<<20 + 12345 // not a multiple of any chunk size
	want := cachedBody(n)
	for _, way := range streamingWays {
		// One tab per way: each fetch must leave it as it found it.
		p := loggedIn(t)
		for _, c := range []struct{ name, path, final string }{
			{"delivers a sized body", "/bytes?n=" + itoa(n), "/bytes?n=" + itoa(n)},
			{"follows a redirect to a body without Content-Length and reports the final address", "/redirect?chunked=1&n=" + itoa(n), "/bytes?chunked=1&n=" + itoa(n)},
		} {
			t.Run(string(way)+" "+c.name, func(t *testing.T) {
				ctx := testCtx(t, 30*time.Second)
				dl := t.TempDir()
				rc, meta, err := Bytes(ctx, p, fixture.URL+c.path, BytesOptions{Way: way, ChunkBytes: 256 << 10, DownloadDir: dl})
				if err != nil {
					t.Fatal(err)
				}
				got, err := io.ReadAll(rc)
				rc.Close()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("got %d bytes, want the %d-byte body", len(got), len(want))
				}
				if meta.Status != 200 || meta.Headers["content-disposition"] == "" || meta.URL != fixture.URL+c.final {
					t.Fatalf("meta %+v", meta)
				}
				if left, _ := os.ReadDir(dl); len(left) != 0 {
					t.Fatalf("%d entries left in the download directory", len(left))
				}
				// The tab's fetches are no longer intercepted: the page
				// fetches by itself again.
				r, err := Text(ctx, p, fixture.URL+"/bytes?n=10", Options{})
				if err != nil || r.Status != 200 || len(r.Body) == 0 {
					t.Fatalf("a later page fetch: %v %+v", err, r)
				}
			})
		}
		for _, chunked := range []bool{false, true} {
			name := string(way) + " refuses a body over the cap"
			path := "/bytes?n=1500000"
			if chunked {
				name += " that has no Content-Length"
				path += "&chunked=1"
			}
			t.Run(name, func(t *testing.T) {
				dl := t.TempDir()
				rc, _, err := Bytes(testCtx(t, 20*time.Second), p, fixture.URL+path, BytesOptions{Way: way, MaxBytes: 1 << 20, ChunkBytes: 256 << 10, DownloadDir: dl})
				if err == nil {
					_, err = io.Copy(io.Discard, rc)
					rc.Close()
				}
				if !errs.Has(err, errs.ArtifactTooLarge) {
					t.Fatalf("error %v, want artifact_too_large", err)
				}
				if left, _ := os.ReadDir(dl); len(left) != 0 {
					t.Fatalf("%d entries left in the download directory", len(left))
				}
			})
		}
	}
}

func TestStreamingWaysReportARefusalWithItsBody(t *testing.T) {
	t.Parallel() // own tabs in own browser contexts
	p := newTab(t, "/blank.html")
	for _, way := range streamingWays {
		t.Run(string(way)+" returns the 403 and its explanation", func(t *testing.T) {
			dl := t.TempDir()
			rc, meta, err := Bytes(testCtx(t, 10*time.Second), p, fixture.URL+"/bytes?n=10", BytesOptions{Way: way, DownloadDir: dl})
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if meta.Status != 403 || !bytes.Contains(b, []byte("no session cookie")) {
				t.Fatalf("status %d body %q", meta.Status, b)
			}
			if left, _ := os.ReadDir(dl); len(left) != 0 {
				t.Fatalf("%d entries left in the download directory", len(left))
			}
		})
	}
}

// brokenServer serves a page and bodies that go wrong, on its own origin.
func brokenServer(t *testing.T) *httptest.Server {
	t.Helper()
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte("<!doctype html><title>broken</title>"))
	})
	// /cut announces 1 MiB, sends half, and drops the connection.
	mux.HandleFunc("/cut", func(w http.ResponseWriter, r *http.Request) {
		conn, rw, err := w.(http.Hijacker).Hijack()
		if err != nil {
			return
		}
		defer conn.Close()
		rw.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/zip\r\nContent-Disposition: attachment; filename=\"x.zip\"\r\nContent-Length: " + strconv.Itoa(1<<20) + "\r\n\r\n")
		rw.Write(cachedBody(1 << 19))
		rw.Flush()
	})
	// /stall sends its headers and a little, then waits for the test.
	mux.HandleFunc("/stall", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="x.zip"`)
		w.Header().Set("Content-Length", strconv.Itoa(1<<20))
		w.Write(cachedBody(1 << 16))
		w.(http.Flusher).Flush()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})
	// /sw-page registers /sw.js, a service worker that answers every
	// request of the page by fetching it itself, as sites' workers do.
	mux.HandleFunc("/sw-page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>sw</title><script>
window.swReady = navigator.serviceWorker.register('/sw.js').then(() => navigator.serviceWorker.ready).then(() => new Promise(r => {
  if (navigator.serviceWorker.controller) return r(true);
  navigator.serviceWorker.addEventListener('controllerchange', () => r(true));
}));
</script>`))
	})
	mux.HandleFunc("/sw.js", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/javascript")
		w.Write([]byte(`self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', e => e.waitUntil(self.clients.claim()));
self.addEventListener('fetch', e => { if (new URL(e.request.url).pathname === '/big') e.respondWith(fetch(e.request)); });`))
	})
	mux.HandleFunc("/big", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/zip")
		w.Header().Set("Content-Disposition", `attachment; filename="x.zip"`)
		w.Write(cachedBody(300000))
	})
	// /router-page cancels every click on a link, as client-side routers do.
	mux.HandleFunc("/router-page", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>router</title><script>
document.addEventListener('click', e => { if (e.target.closest('a')) e.preventDefault(); }, true);
</script>`))
	})
	// /open answers any origin's credentialed fetch (CORS).
	mux.HandleFunc("/open", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Access-Control-Allow-Origin", r.Header.Get("Origin"))
		w.Header().Set("Access-Control-Allow-Credentials", "true")
		w.Header().Set("Content-Type", "application/zip")
		w.Write(cachedBody(300000))
	})
	// /elsewhere redirects to another origin.
	mux.HandleFunc("/elsewhere", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, fixture.URL+"/bytes?n=10", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	t.Cleanup(func() { close(release); srv.CloseClientConnections(); srv.Close() })
	return srv
}

func TestURLDownloadRightAfterARefusalOfTheSameAddressGetsTheBody(t *testing.T) {
	t.Parallel() // own tabs in own browser contexts
	// The refused attempt leaves a failed download item behind, whose
	// events arrive late: they must not be taken for the next attempt's.
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 20*time.Second)
	u := fixture.URL + "/bytes?n=200000"
	rc, meta, err := Bytes(ctx, p, u, BytesOptions{Way: WayURLDownload, DownloadDir: t.TempDir()})
	if err != nil || meta.Status != 403 {
		t.Fatalf("first attempt: %v %+v", err, meta)
	}
	rc.Close()
	if _, err := Text(ctx, p, fixture.URL+"/set-cookie", Options{}); err != nil {
		t.Fatal(err)
	}
	rc, meta, err = Bytes(ctx, p, u, BytesOptions{Way: WayURLDownload, DownloadDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || meta.Status != 200 || !bytes.Equal(got, cachedBody(200000)) {
		t.Fatalf("second attempt: status %d, %d bytes, %v", meta.Status, len(got), err)
	}
}

func TestStreamingWaysFailCleanlyWhenTheTransferBreaks(t *testing.T) {
	t.Parallel() // own tabs in own browser contexts
	srv := brokenServer(t)
	p := newTab(t, "")
	if err := p.Navigate(testCtx(t, 10*time.Second), srv.URL+"/page"); err != nil {
		t.Fatal(err)
	}
	for _, way := range streamingWays {
		t.Run(string(way)+" calls a body cut short of its Content-Length corrupt and leaves no file", func(t *testing.T) {
			ctx := testCtx(t, 20*time.Second)
			dl := t.TempDir()
			rc, _, err := Bytes(ctx, p, srv.URL+"/cut", BytesOptions{Way: way, DownloadDir: dl})
			if err == nil {
				_, err = io.Copy(io.Discard, rc)
				rc.Close()
			}
			if !errs.Has(err, errs.ArtifactCorrupt) {
				t.Fatalf("error %v, want artifact_corrupt", err)
			}
			if left, _ := os.ReadDir(dl); len(left) != 0 {
				t.Fatalf("%d entries left in the download directory", len(left))
			}
		})
		t.Run(string(way)+" ends at the deadline when the server stalls", func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), time.Second)
			defer cancel()
			dl := t.TempDir()
			t0 := time.Now()
			rc, _, err := Bytes(ctx, p, srv.URL+"/stall", BytesOptions{Way: way, DownloadDir: dl})
			if err == nil {
				_, err = io.Copy(io.Discard, rc)
				rc.Close()
			}
			if !errs.Has(err, errs.Timeout) {
				t.Fatalf("error %v, want timeout", err)
			}
			if d := time.Since(t0); d > time.Second+cleanupTimeout {
				t.Fatalf("took %v after a 1 s deadline", d)
			}
			if left, _ := os.ReadDir(dl); len(left) != 0 {
				t.Fatalf("%d entries left in the download directory", len(left))
			}
		})
		t.Run(string(way)+" reports a crashed tab instead of hanging", func(t *testing.T) {
			p := newTab(t, "")
			ctx := testCtx(t, 15*time.Second)
			if err := p.Navigate(ctx, srv.URL+"/page"); err != nil {
				t.Fatal(err)
			}
			go func() {
				time.Sleep(500 * time.Millisecond)
				cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
				defer cancel()
				_ = p.Exec(cctx, "Page.crash", proto.PageCrash{}, nil)
			}()
			dl := t.TempDir()
			rc, _, err := Bytes(ctx, p, srv.URL+"/stall", BytesOptions{Way: way, DownloadDir: dl})
			if err == nil {
				_, err = io.Copy(io.Discard, rc)
				rc.Close()
			}
			if !errs.Has(err, errs.TargetCrashed) && !errs.Has(err, errs.TargetNotFound) {
				t.Fatalf("error %v, want target_crashed", err)
			}
		})
	}
	t.Run("url-download refuses an address of another origin before fetching it", func(t *testing.T) {
		p := loggedIn(t)
		_, _, err := Bytes(testCtx(t, 10*time.Second), p, srv.URL+"/cut?sig=secret", BytesOptions{Way: WayURLDownload})
		if !errs.Has(err, errs.BadInput) || strings.Contains(err.Error(), "secret") {
			t.Fatalf("error %v, want bad_input without the query", err)
		}
	})
	t.Run("the default way streams an address of another origin", func(t *testing.T) {
		other := brokenServer(t)
		ctx := testCtx(t, 10*time.Second)
		rc, meta, err := Bytes(ctx, p, other.URL+"/open", BytesOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || meta.Status != 200 || !bytes.Equal(got, cachedBody(300000)) {
			t.Fatalf("status %d, %d bytes, %v", meta.Status, len(got), err)
		}
	})
	t.Run("url-download fails at once when the page cancels link clicks", func(t *testing.T) {
		q := newTab(t, "")
		ctx := testCtx(t, 10*time.Second)
		if err := q.Navigate(ctx, srv.URL+"/router-page"); err != nil {
			t.Fatal(err)
		}
		t0 := time.Now()
		_, _, err := Bytes(ctx, q, srv.URL+"/open", BytesOptions{Way: WayURLDownload, DownloadDir: t.TempDir()})
		if !errs.Has(err, errs.ArtifactFetchFailed) || time.Since(t0) > 5*time.Second {
			t.Fatalf("error %v after %v, want artifact_fetch_failed well before the deadline", err, time.Since(t0))
		}
	})
	t.Run("url-download refuses a redirect to another origin and the tab stays", func(t *testing.T) {
		ctx := testCtx(t, 10*time.Second)
		_, _, err := Bytes(ctx, p, srv.URL+"/elsewhere", BytesOptions{Way: WayURLDownload, DownloadDir: t.TempDir()})
		var fe *Error
		if !errors.As(err, &fe) {
			t.Fatalf("error %v, want a Error", err)
		}
		info, err := p.Info(ctx)
		if err != nil || info.URL != srv.URL+"/page" {
			t.Fatalf("the tab is at %q (%v)", info.URL, err)
		}
	})
}

func TestStreamingWaysUnderAServiceWorker(t *testing.T) {
	t.Parallel() // own tabs in own browser contexts
	srv := brokenServer(t)
	p := newTab(t, "")
	ctx := testCtx(t, 20*time.Second)
	if err := p.Navigate(ctx, srv.URL+"/sw-page"); err != nil {
		t.Fatal(err)
	}
	var ok bool
	if err := p.EvalInto(ctx, &ok, `() => window.swReady`); err != nil || !ok {
		t.Fatalf("the service worker did not take control: %v", err)
	}
	for _, way := range []Way{"", WayURLDownload} {
		name := string(way)
		if way == "" {
			name = "the default"
		}
		t.Run(name+" way brings the body past the worker", func(t *testing.T) {
			rc, meta, err := Bytes(testCtx(t, 10*time.Second), p, srv.URL+"/big", BytesOptions{Way: way, DownloadDir: t.TempDir()})
			if err != nil {
				t.Fatal(err)
			}
			got, err := io.ReadAll(rc)
			rc.Close()
			if err != nil || meta.Status != 200 || !bytes.Equal(got, cachedBody(300000)) {
				t.Fatalf("status %d, %d bytes, %v", meta.Status, len(got), err)
			}
		})
	}
	t.Run("fetch-stream fails at once when the worker answers instead of the network", func(t *testing.T) {
		t0 := time.Now()
		_, _, err := Bytes(testCtx(t, 10*time.Second), p, srv.URL+"/big", BytesOptions{Way: WayStream})
		if !errs.Has(err, errs.ArtifactFetchFailed) || time.Since(t0) > 5*time.Second {
			t.Fatalf("error %v after %v, want artifact_fetch_failed well before the deadline", err, time.Since(t0))
		}
	})
}

func TestStreamingWayTakesTurnsOnOneTab(t *testing.T) {
	t.Parallel() // own tabs in own browser contexts
	// Two streamed fetches on one tab at once each get their own body: the
	// second waits for the first's interception to end.
	p := loggedIn(t)
	ctx := testCtx(t, 30*time.Second)
	sizes := []int{300000, 400000}
	errc := make(chan error, len(sizes))
	for _, n := range sizes {
		go func() {
			rc, _, err := Bytes(ctx, p, fixture.URL+"/bytes?n="+itoa(n), BytesOptions{Way: WayStream})
			if err != nil {
				errc <- err
				return
			}
			got, err := io.ReadAll(bufio.NewReader(rc))
			rc.Close()
			if err == nil && !bytes.Equal(got, cachedBody(n)) {
				err = errors.New("a body came back wrong: " + itoa(len(got)) + " bytes for " + itoa(n))
			}
			errc <- err
		}()
	}
	for range sizes {
		if err := <-errc; err != nil {
			t.Fatal(err)
		}
	}
}

func TestDecodeIORead(t *testing.T) {
	for _, c := range []struct {
		name string
		raw  string
		want string
		eof  bool
		bad  bool
	}{
		{"decodes base64 data", `{"id":-3,"result":{"base64Encoded":true,"data":"aGVsbG8=","eof":false},"sessionId":"S"}`, "hello", false, false},
		{"reads the fields in any order", `{"id":-3,"result":{"eof":true,"data":"aGVsbG8=","base64Encoded":true}}`, "hello", true, false},
		{"keeps text data", `{"id":-3,"result":{"data":"plain","eof":true}}`, "plain", true, false},
		{"unescapes text data", `{"id":-3,"result":{"data":"a\"b\\c","eof":true}}`, `a"b\c`, true, false},
		{"decodes base64 written with an escaped slash", `{"id":-3,"result":{"base64Encoded":true,"data":"Pz8\/","eof":false}}`, "???", false, false},
		{"accepts an empty last chunk", `{"id":-3,"result":{"base64Encoded":true,"data":"","eof":true}}`, "", true, false},
		{"refuses broken base64", `{"id":-3,"result":{"base64Encoded":true,"data":"a$==","eof":false}}`, "", false, true},
		{"refuses data that is not a string", `{"id":-3,"result":{"base64Encoded":true,"data":12,"eof":false}}`, "", false, true},
		{"refuses a reply without a result", `{"id":-3}`, "", false, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, eof, err := decodeIOReadRaw([]byte(c.raw), nil)
			if (err != nil) != c.bad || string(got) != c.want || eof != c.eof {
				t.Fatalf("got %q %v %v", got, eof, err)
			}
		})
	}
	t.Run("a protocol error is the browser's error, as rod reports it", func(t *testing.T) {
		_, _, err := decodeIOReadRaw([]byte(`{"id":-3,"error":{"code":-32000,"message":"Invalid stream handle","data":"x"}}`), nil)
		var ce *cdp.Error
		if !errors.As(err, &ce) || ce.Message != "Invalid stream handle" {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("a chunk is decoded into the buffer it is given", func(t *testing.T) {
		buf := make([]byte, 0, 64)
		got, _, err := decodeIOReadRaw([]byte(`{"id":-3,"result":{"base64Encoded":true,"data":"aGVsbG8=","eof":false}}`), buf)
		if err != nil || string(got) != "hello" || &got[0] != &buf[:1][0] {
			t.Fatalf("got %q %v, or not in the buffer given", got, err)
		}
	})
}
