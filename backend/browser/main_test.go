package browser

import (
	"context"
	"embed"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/browsertest"
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
	os.Exit(browsertest.Main(m, fixtureMux(), &fixture, &shared, func(ctx context.Context, profile string) (*Browser, error) {
		return Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
	}))
}

func fixtureMux() *http.ServeMux {
	mux := http.NewServeMux()
	sub, _ := fs.Sub(fixtures, "testdata")
	mux.Handle("/", http.FileServer(http.FS(sub)))
	registerCaptureHandlers(mux)
	return mux
}

// newTab opens path (on the fixture server) in a fresh tab of a fresh
// browser context, closed with the test.
func newTab(t testing.TB, path string) *Page {
	t.Helper()
	return browsertest.NewTab[*Page](t, shared.NewContext, fixture, path)
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}
