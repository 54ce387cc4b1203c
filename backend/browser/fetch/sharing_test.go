package fetch

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/browsertest"
)

func TestALaunchedBrowserSharesFerrysFiles(t *testing.T) {
	p := loggedIn(t)
	ctx := testCtx(t, 30*time.Second)
	fs, err := SharesFiles(ctx, p, t.TempDir())
	if err != nil || !fs.Shared || fs.How != SharingLaunched {
		t.Fatalf("sharing %+v %v, want shared because Ferry launched it", fs, err)
	}
	// Left to its default, the body comes as the browser's own download.
	rc, meta, err := Bytes(ctx, p, fixture.URL+"/bytes?n=100000", BytesOptions{DownloadDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	rc.Close()
	if err != nil || !bytes.Equal(got, cachedBody(100000)) {
		t.Fatalf("read %d bytes: %v", len(got), err)
	}
	if meta.Way != WayURLDownload || meta.Files == nil || !meta.Files.Shared {
		t.Fatalf("way %q files %+v, want url-download in a browser that shares files", meta.Way, meta.Files)
	}
}

// attachedTab attaches to the browser at endpoint (closing only the
// connection when the test ends) and opens a tab holding the fixture's
// session cookie.
func attachedTab(t *testing.T, endpoint string) (*browser.Browser, *browser.Page) {
	t.Helper()
	ctx := testCtx(t, 30*time.Second)
	b, err := browser.Attach(ctx, endpoint)
	if err != nil {
		t.Fatalf("attach: %v", err)
	}
	t.Cleanup(func() { _ = b.Close(testCtx(t, 15*time.Second)) })
	if b.Launched() {
		t.Fatal("an attached browser claims Ferry launched it")
	}
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, fixture.URL+"/blank.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := Text(ctx, p, fixture.URL+"/set-cookie", Options{}); err != nil {
		t.Fatalf("set the cookie: %v", err)
	}
	return b, p
}

func TestAnAttachedBrowserOnFerrysFileSystemIsProvenToShareItsFiles(t *testing.T) {
	profile, _ := browsertest.StartUser(t, testBinary)
	_, p := attachedTab(t, profile)
	ctx := testCtx(t, 30*time.Second)
	dir := t.TempDir()
	fs, err := SharesFiles(ctx, p, dir)
	if err != nil || !fs.Shared || fs.How != SharingProbe {
		t.Fatalf("sharing %+v %v, want shared, proven by the probe", fs, err)
	}
	if left, _ := os.ReadDir(dir); len(left) != 0 {
		t.Fatalf("the probe left %d entries in %s", len(left), dir)
	}
	// The answer is kept for the connection: a page that would now spoil
	// a probe (it cancels every click) does not change it.
	if _, err := p.Eval(ctx, `() => { document.addEventListener('click', e => e.preventDefault(), true); }`); err != nil {
		t.Fatal(err)
	}
	if again, err := SharesFiles(ctx, p, dir); err != nil || again != fs {
		t.Fatalf("second answer %+v %v, want the first, %+v", again, err, fs)
	}
}

// TestTheBrowsersSystemIsReadFromItsUserAgent: a browser on another system
// than Ferry's is not probed (the directory Ferry would name means nothing
// there); Android and ChromeOS, which say Linux too, are probed.
func TestTheBrowsersSystemIsReadFromItsUserAgent(t *testing.T) {
	for _, tc := range []struct{ ua, want string }{
		{"Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", "windows"},
		{"Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", "darwin"},
		{"Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36", "linux"},
		{"Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Mobile Safari/537.36", ""},
		{"Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36", ""},
		{"", ""},
	} {
		if got := userAgentOS(tc.ua); got != tc.want {
			t.Errorf("userAgentOS(%q) = %q, want %q", tc.ua, got, tc.want)
		}
	}
}
