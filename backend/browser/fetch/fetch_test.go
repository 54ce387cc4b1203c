package fetch

import (
	"bytes"
	"errors"
	"io"
	"net"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/errs"
)

// loggedIn opens a fixture page whose browser context holds the HttpOnly
// session cookie.
func loggedIn(t testing.TB) *browser.Page {
	t.Helper()
	p := newTab(t, "/blank.html")
	if _, err := Text(testCtx(t, 5*time.Second), p, fixture.URL+"/set-cookie", Options{}); err != nil {
		t.Fatalf("set the cookie: %v", err)
	}
	return p
}

func TestFetchSendsTheHttpOnlyCookieAndReportsTheStatus(t *testing.T) {
	t.Run("without the cookie the server refuses", func(t *testing.T) {
		p := newTab(t, "/blank.html")
		r, err := Text(testCtx(t, 5*time.Second), p, fixture.URL+"/bytes?n=10", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != 403 {
			t.Fatalf("status %d", r.Status)
		}
	})
	t.Run("with the cookie the body and headers come back", func(t *testing.T) {
		p := loggedIn(t)
		r, err := Text(testCtx(t, 5*time.Second), p, fixture.URL+"/bytes?n=10", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r.Status != 200 || r.Headers["content-type"] != "application/zip" || r.Size != 10 {
			t.Fatalf("meta %+v", r.Meta)
		}
	})
	t.Run("a refused connection is a Error without the URL's query", func(t *testing.T) {
		p := newTab(t, "/blank.html")
		l, _ := net.Listen("tcp", "127.0.0.1:0")
		addr := l.Addr().String()
		l.Close()
		_, err := Text(testCtx(t, 5*time.Second), p, "http://"+addr+"/x?sig=secret", Options{})
		var fe *Error
		if !errors.As(err, &fe) {
			t.Fatalf("error %v, want a Error", err)
		}
		if bytes.Contains([]byte(err.Error()), []byte("secret")) {
			t.Fatalf("the error shows the signature: %v", err)
		}
	})
}

func TestFetchBytesEveryWayDeliversTheExactBody(t *testing.T) {
	const n = 1<<20 + 12345 // not a multiple of any chunk size
	want := cachedBody(n)
	type tc struct {
		name string
		way  Way
		path string
	}
	var cases []tc
	for _, way := range []Way{WayChunkedEval, WayBlobIO, WayDownload} {
		cases = append(cases,
			tc{string(way) + " delivers a sized body", way, "/bytes?n=" + itoa(n)},
			tc{string(way) + " delivers a body without Content-Length", way, "/bytes?chunked=1&n=" + itoa(n)})
	}
	cases = append(cases, tc{"the default way follows a redirect and reports the final address", "", "/redirect?n=" + itoa(n)})
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := loggedIn(t)
			ctx := testCtx(t, 30*time.Second)
			rc, meta, err := Bytes(ctx, p, fixture.URL+c.path, BytesOptions{Way: c.way, ChunkBytes: 256 << 10})
			if err != nil {
				t.Fatal(err)
			}
			defer rc.Close()
			got, err := io.ReadAll(rc)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Fatalf("got %d bytes, want the %d-byte body", len(got), len(want))
			}
			if meta.Status != 200 || meta.Headers["content-disposition"] == "" {
				t.Fatalf("meta %+v", meta)
			}
			if c.way == "" && meta.URL != fixture.URL+"/bytes?n="+itoa(n) {
				t.Fatalf("final URL %q", meta.URL)
			}
		})
	}
}

func TestFetchBytesEnforcesTheCap(t *testing.T) {
	for _, way := range []Way{WayChunkedEval, WayBlobIO, WayDownload} {
		for _, chunked := range []bool{false, true} {
			name := string(way) + " refuses a body over the cap"
			if chunked {
				name += " that has no Content-Length"
			}
			t.Run(name, func(t *testing.T) {
				p := loggedIn(t)
				ctx := testCtx(t, 20*time.Second)
				path := "/bytes?n=1500000"
				if chunked {
					path += "&chunked=1"
				}
				rc, _, err := Bytes(ctx, p, fixture.URL+path, BytesOptions{Way: way, MaxBytes: 1 << 20, ChunkBytes: 256 << 10})
				if err == nil {
					_, err = io.Copy(io.Discard, rc)
					rc.Close()
				}
				if !errs.Has(err, errs.ArtifactTooLarge) {
					t.Fatalf("error %v, want artifact_too_large", err)
				}
			})
		}
	}
}

func TestFetchBytesReturnsTheErrorBodyOfARefusal(t *testing.T) {
	p := newTab(t, "/blank.html")
	rc, meta, err := Bytes(testCtx(t, 10*time.Second), p, fixture.URL+"/bytes?n=10", BytesOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	b, _ := io.ReadAll(rc)
	if meta.Status != 403 || !bytes.Contains(b, []byte("no session cookie")) {
		t.Fatalf("status %d body %q", meta.Status, b)
	}
}
