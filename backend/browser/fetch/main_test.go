package fetch

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/browsertest"
	"github.com/ferrydesk/ferry/backend/browser/launch"
)

// testBinary is Debian's Chromium, as `make test` installs it.
const testBinary = "/usr/bin/chromium"

var (
	shared  *browser.Browser // one browser for the whole test binary
	fixture *httptest.Server
)

func TestMain(m *testing.M) {
	mux := http.NewServeMux()
	registerFetchHandlers(mux)
	os.Exit(browsertest.Main(m, mux, &fixture, &shared, func(ctx context.Context, profile string) (*browser.Browser, error) {
		return browser.Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
	}))
}

// newTab opens path (on the fixture server) in a fresh tab of a fresh
// browser context, closed with the test.
func newTab(t testing.TB, path string) *browser.Page {
	t.Helper()
	return browsertest.NewTab[*browser.Page](t, shared.NewContext, fixture, path)
}

func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
}

func itoa(i int) string { return strconv.Itoa(i) }
