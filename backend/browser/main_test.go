package browser

import (
	"context"
	"embed"
	"fmt"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/launch"
)

// testBinary is Debian's Chromium, as `make test` installs it.
const testBinary = "/usr/bin/chromium"

//go:embed testdata/*.html
var fixtures embed.FS

var (
	shared  *Browser // one browser for the whole test binary
	fixture *httptest.Server
)

func TestMain(m *testing.M) {
	os.Exit(runTests(m))
}

func runTests(m *testing.M) int {
	fixture = httptest.NewServer(fixtureMux())
	defer fixture.Close()

	profile, err := os.MkdirTemp("", "ferry-browser-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "make profile dir:", err)
		return 1
	}
	defer os.RemoveAll(profile)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	shared, err = Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch the shared test browser:", err)
		return 1
	}
	defer shared.Close(context.Background())
	return m.Run()
}

func fixtureMux() *http.ServeMux {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(fixtures, "testdata")
	mux.Handle("/", http.FileServer(http.FS(sub)))
	registerFetchHandlers(mux)
	return mux
}

// newTab opens url (a path on the fixture server) in a fresh tab of a fresh
// browser context, closed with the test.
func newTab(t testing.TB, path string) *Page {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	bc, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatalf("new browser context: %v", err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = bc.Dispose(ctx)
	})
	p, err := bc.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatalf("open tab: %v", err)
	}
	if path != "" {
		if err := p.Navigate(ctx, fixture.URL+path); err != nil {
			t.Fatalf("navigate to %s: %v", path, err)
		}
	}
	return p
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
