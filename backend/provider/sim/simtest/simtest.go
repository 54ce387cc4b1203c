// Package simtest starts the provider simulator together with a headless
// Chromium whose host-resolver rules send every simulated site to it, so
// tests drive pages at their real https URLs. One browser per test binary
// (Main + Shared), one incognito context per test (Env.Page).
package simtest

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

// ChromiumBin is the browser the tests drive (Debian's chromium package).
var ChromiumBin = "/usr/bin/chromium"

// Env is a running simulator and the browser mapped to it.
type Env struct {
	Server  *sim.Server
	Browser *rod.Browser
	// Startup is how long the simulator and the browser took to be ready
	// (listening, launched, connected).
	Startup time.Duration

	launcher *launcher.Launcher
	cancel   context.CancelFunc
}

// Start starts a simulator on a loopback port and launches headless Chromium
// mapped to it. It returns an error when Chromium is missing or fails to
// start; call Close to stop both.
func Start(opts ...sim.Option) (*Env, error) {
	t0 := time.Now()
	if _, err := os.Stat(ChromiumBin); err != nil {
		return nil, fmt.Errorf("find chromium at %s (apt-get install chromium): %w", ChromiumBin, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	srv := sim.New(opts...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		cancel()
		return nil, fmt.Errorf("start simulator: %w", err)
	}
	l := launcher.New().Bin(ChromiumBin).Headless(true).NoSandbox(true).Leakless(false).
		Set("disable-gpu").Set("disable-quic").Set("no-first-run").
		Set("disable-background-networking").Set("disable-component-update").Set("disable-sync").
		Set("host-resolver-rules", srv.HostResolverRules()).Set("ignore-certificate-errors")
	u, err := l.Launch()
	if err != nil {
		srv.Close()
		cancel()
		return nil, fmt.Errorf("launch chromium: %w", err)
	}
	b := rod.New().ControlURL(u)
	if err := b.Connect(); err != nil {
		l.Kill()
		srv.Close()
		cancel()
		return nil, fmt.Errorf("connect to chromium: %w", err)
	}
	return &Env{Server: srv, Browser: b, launcher: l, cancel: cancel, Startup: time.Since(t0)}, nil
}

// Close stops the browser and the simulator.
func (e *Env) Close() {
	if e == nil {
		return
	}
	_ = e.Browser.Close()
	e.launcher.Kill()
	e.launcher.Cleanup()
	e.Server.Close()
	e.cancel()
}

// Page opens url in a fresh incognito context (own cookies) that is disposed
// when the test ends. The page's operations time out with the test's
// deadline or after timeout, whichever is sooner.
func (e *Env) Page(t testing.TB, url string, timeout time.Duration) *rod.Page {
	t.Helper()
	inc, err := e.Browser.Incognito()
	if err != nil {
		t.Fatalf("create incognito context: %v", err)
	}
	t.Cleanup(func() { _ = inc.Close() })
	p, err := inc.Page(proto.TargetCreateTarget{})
	if err != nil {
		t.Fatalf("open page: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	t.Cleanup(cancel)
	p = p.Context(ctx)
	if err := p.Navigate(url); err != nil {
		t.Fatalf("navigate to %s: %v", url, err)
	}
	if err := p.WaitLoad(); err != nil {
		t.Fatalf("load %s: %v", url, err)
	}
	return p
}

var (
	shared    *Env
	sharedErr error
	once      sync.Once
)

// Main runs the tests of a package with one shared Env (started lazily by
// Shared) and closes it afterwards. Use it from TestMain.
func Main(m *testing.M, opts ...sim.Option) {
	sharedOpts = opts
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.Exit(code)
}

var sharedOpts []sim.Option

// Shared returns the package's Env, starting it on first use; the test fails
// when it cannot start. Tests that change scenarios must reset them
// (Server.Reset) or use their own Env.
func Shared(t testing.TB) *Env {
	t.Helper()
	once.Do(func() { shared, sharedErr = Start(sharedOpts...) })
	if sharedErr != nil {
		t.Fatalf("start simulator and browser: %v", sharedErr)
	}
	return shared
}
