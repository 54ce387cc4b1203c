package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"
)

// Main runs the tests of m against one browser for the whole test binary:
// it serves mux over HTTP (the tests' fixtures) as *fixture, has start
// launch the browser on a fresh profile as *shared (B is *browser.Browser),
// and returns the tests' exit code once the browser, the profile and the
// server are gone. It returns 1 when the browser cannot start.
func Main[B interface{ Close(context.Context) error }](m *testing.M, mux http.Handler, fixture **httptest.Server, shared *B, start func(ctx context.Context, profile string) (B, error)) int {
	*fixture = httptest.NewServer(mux)
	defer (*fixture).Close()

	profile, err := os.MkdirTemp("", "ferry-browser-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "make profile dir:", err)
		return 1
	}
	defer os.RemoveAll(profile)

	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	b, err := start(ctx, profile)
	if err != nil {
		fmt.Fprintln(os.Stderr, "launch the shared test browser:", err)
		return 1
	}
	*shared = b
	defer b.Close(context.Background())
	return m.Run()
}

// Context is what NewTab needs of a *browser.BrowserContext, whose tabs
// are of type T. (Package browser's own tests use this package, which
// therefore names none of its types.)
type Context[T any] interface {
	OpenTab(ctx context.Context, rawURL string) (T, error)
	Dispose(ctx context.Context) error
}

// NewTab opens a fresh tab in a fresh browser context made by newContext
// (Browser.NewContext), disposed of when the test ends, and loads path of
// the fixture server in it unless path is "" (the tab stays at
// about:blank). T is *browser.Page.
func NewTab[T interface {
	Navigate(ctx context.Context, rawURL string) error
}, C Context[T]](t testing.TB, newContext func(context.Context) (C, error), fixture *httptest.Server, path string) T {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	bc, err := newContext(ctx)
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
