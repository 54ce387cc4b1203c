// Package providertest is the conformance suite every provider adapter
// passes: Run drives the adapter against the provider simulator in real
// headless Chromium (one browser per test binary, a browser context of its
// own per test, whose tab may be one an earlier test left, cleared of all it
// kept) through readiness, login detection, compose and
// read-back, a send that happens exactly once, streamed partial text, the
// final answer, code blocks, model proof, every interstitial scenario, a
// drifted page fixed by a settings override alone, a tab that navigated away,
// a capability refusal that types nothing, and a Cancel that stops the
// site's answer (or says the site would not stop).
//
// Every turn of the suite runs the way a user's run does (Ask): through a
// job.Runner over a real store in the test's temporary directory, the one
// sequencer production uses, and the suite checks what its journal
// recorded beside what the adapter returned.
//
// Use it from the adapter's tests:
//
//	func TestMain(m *testing.M) { providertest.Main(m) }
//	func TestConformance(t *testing.T) { providertest.Run(t, "chatgpt", chatgpt.Factory) }
package providertest

import (
	"context"
	"fmt"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// ChromiumBin is the browser the suite drives (Debian's chromium package).
var ChromiumBin = "/usr/bin/chromium"

// Harness is a running simulator and a headless Chromium mapped to it.
type Harness struct {
	Server  *sim.Server
	Browser *browser.Browser
	Startup time.Duration

	profile string
	cancel  context.CancelFunc

	poolMu sync.Mutex
	pool   []pooledTab
}

// pooledTab is the tab of a test that ended, left in its browser context
// with Ferry's session to it ended: a renderer process to use again.
type pooledTab struct {
	bc     *browser.BrowserContext
	target proto.TargetTargetID
}

// tab returns a test's tab on about:blank, in a browser context of its own
// that no other test holds: a tab an earlier test left, its cookies and
// storage cleared, or a new one (Open forgets the history of one used
// again). A new tab and its first page cost about half a CPU-second (a
// renderer process), more than most tests' own work, while a context is
// cheap, so each tab stays open for the next test; Ferry's session to it is
// new (no emulation, capture or handler of the earlier test remains). The
// tab is given back when the test ends, or closed with its context when it
// is not healthy.
func (h *Harness) tab(t *testing.T, ctx context.Context) (p *browser.Page, reused bool, err error) {
	for {
		h.poolMu.Lock()
		if len(h.pool) == 0 {
			h.poolMu.Unlock()
			break
		}
		pt := h.pool[len(h.pool)-1]
		h.pool = h.pool[:len(h.pool)-1]
		h.poolMu.Unlock()
		p, err := h.reuse(ctx, pt)
		if err == nil {
			t.Cleanup(func() { h.giveBack(pt.bc, p) })
			return p, true, nil
		}
		dispose(pt.bc)
	}
	bc, err := h.Browser.NewContext(ctx)
	if err != nil {
		return nil, false, fmt.Errorf("new browser context: %w", err)
	}
	if p, err = bc.OpenTab(ctx, "about:blank"); err != nil {
		dispose(bc)
		return nil, false, err
	}
	t.Cleanup(func() { h.giveBack(bc, p) })
	return p, false, nil
}

// reuse attaches to a pooled tab and clears what the earlier test left:
// the page (about:blank, so it cannot write again), the context's cookies
// and the storage of every simulated site.
func (h *Harness) reuse(ctx context.Context, pt pooledTab) (*browser.Page, error) {
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	p, err := h.Browser.AttachTarget(ctx, pt.target, proto.BrowserBrowserContextID(pt.bc.ID))
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*browser.Page, error) {
		_ = p.Detach(ctx)
		return nil, err
	}
	if err := p.Navigate(ctx, "about:blank"); err != nil {
		return fail(err)
	}
	if err := h.Browser.Call(ctx, "clear the cookies", "Storage.clearCookies", proto.StorageClearCookies{BrowserContextID: proto.BrowserBrowserContextID(pt.bc.ID)}, nil); err != nil {
		return fail(err)
	}
	for _, id := range sim.Sites() {
		origin := "https://" + sim.Hosts[id]
		if err := p.Exec(ctx, "Storage.clearDataForOrigin", proto.StorageClearDataForOrigin{Origin: origin, StorageTypes: "all"}, nil); err != nil {
			return fail(err)
		}
	}
	return p, nil
}

// giveBack ends Ferry's session to a test's tab and pools the tab, or
// disposes of its context when the tab is gone or will not detach.
func (h *Harness) giveBack(bc *browser.BrowserContext, p *browser.Page) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if p.Err() != nil || p.Detach(ctx) != nil {
		dispose(bc)
		return
	}
	h.poolMu.Lock()
	h.pool = append(h.pool, pooledTab{bc: bc, target: proto.TargetTargetID(p.ID())})
	h.poolMu.Unlock()
}

func dispose(bc *browser.BrowserContext) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_ = bc.Dispose(ctx)
}

// Start starts a simulator on a loopback port and launches headless Chromium
// (through backend/browser, as Ferry itself does) with the simulator's
// host-resolver rules. Close stops both.
func Start(opts ...sim.Option) (*Harness, error) {
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
	profile, err := os.MkdirTemp("", "ferry-providertest-")
	if err != nil {
		srv.Close()
		cancel()
		return nil, fmt.Errorf("make profile dir: %w", err)
	}
	lctx, lcancel := context.WithTimeout(ctx, 60*time.Second)
	defer lcancel()
	b, err := browser.Launch(lctx, profile, launch.WithBinary(ChromiumBin), launch.Headless(), launch.WithArgs(srv.ChromiumFlags()...))
	if err != nil {
		srv.Close()
		cancel()
		_ = os.RemoveAll(profile)
		return nil, fmt.Errorf("launch chromium: %w", err)
	}
	return &Harness{Server: srv, Browser: b, Startup: time.Since(t0), profile: profile, cancel: cancel}, nil
}

// Close stops the browser and the simulator and removes the profile.
func (h *Harness) Close() {
	if h == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = h.Browser.Close(ctx)
	h.Server.Close()
	h.cancel()
	_ = os.RemoveAll(h.profile)
}

var (
	shared    *Harness
	sharedErr error
	once      sync.Once
	inMain    bool
	// mu serialises tests on the shared harness: scenarios are per site,
	// server-wide.
	mu sync.Mutex
)

// DefaultSimOptions are the simulator options of the shared harness: a fast
// pace that still streams an answer in dozens of pieces, and a short
// rate-limit lock.
var DefaultSimOptions = []sim.Option{sim.WithPace(8, 12*time.Millisecond), sim.WithRateLimitLock(2 * time.Second)}

// Main runs a package's tests with one shared Harness (started on first use)
// and closes it afterwards. Call it from TestMain.
func Main(m *testing.M) {
	inMain = true
	code := m.Run()
	if shared != nil {
		shared.Close()
	}
	os.Exit(code)
}

// Shared returns the package's Harness, starting it on first use.
func Shared(t testing.TB) *Harness {
	t.Helper()
	if !inMain {
		// Without Main nothing would close the browser after the tests.
		t.Fatal("call providertest.Main(m) from the package's TestMain before using the shared harness")
	}
	once.Do(func() { shared, sharedErr = Start(DefaultSimOptions...) })
	if sharedErr != nil {
		t.Fatalf("start simulator and browser: %v", sharedErr)
	}
	return shared
}

// Tab is one test's tab in its own browser context, with the adapter.
type Tab struct {
	H       *Harness
	Page    *browser.Page
	Site    site.Site
	Sites   *site.Registry
	Adapter provider.Adapter
}

// Setup is what a test changes before its tab opens.
type Setup struct {
	Scenario  string            // a page scenario for the site ("" = normal)
	Params    map[string]string // the page scenario's params
	Overrides []site.Override   // settings overrides merged over the built-in sites
	Path      string            // the path to open ("" = "/")
	// Viewport, when set, is the tab's size in CSS pixels (a short window
	// such as Ferry's headless 780x437).
	Viewport *browser.Point
	// StopTimeout, when set, bounds the adapter's Stop (provider.Env's;
	// zero: production's provider.StopTimeout).
	StopTimeout time.Duration
}

// Open resets the simulator, applies setup, opens the site in a fresh
// browser context and builds the adapter with f. Everything is closed when
// the test ends.
func Open(t *testing.T, ctx context.Context, siteID string, f provider.Factory, setup Setup) *Tab {
	t.Helper()
	h := Shared(t)
	h.Server.Reset()
	if setup.Scenario != "" {
		h.Server.SetScenario(siteID, sim.Scenario{Name: setup.Scenario, Params: setup.Params})
	}
	reg := site.Builtin()
	if len(setup.Overrides) > 0 {
		var err error
		if reg, err = reg.Merge(setup.Overrides...); err != nil {
			t.Fatalf("merge overrides: %v", err)
		}
	}
	s, err := reg.Get(siteID)
	if err != nil {
		t.Fatalf("site %s: %v", siteID, err)
	}
	p, reused, err := h.tab(t, ctx)
	if err != nil {
		t.Fatalf("open a tab: %v", err)
	}
	if v := setup.Viewport; v != nil {
		if err := p.Exec(ctx, "Emulation.setDeviceMetricsOverride", proto.EmulationSetDeviceMetricsOverride{
			Width: int(v.X), Height: int(v.Y), DeviceScaleFactor: 1}, nil); err != nil {
			t.Fatalf("size the tab %vx%v: %v", v.X, v.Y, err)
		}
	}
	path := setup.Path
	if path == "" {
		path = "/"
	}
	if err := p.Navigate(ctx, sim.URL(siteID, path)); err != nil {
		t.Fatalf("navigate to %s: %v", sim.URL(siteID, path), err)
	}
	// A new tab's first page replaces its about:blank; a tab used again
	// forgets its about:blank and the earlier test's pages the same way.
	if reused {
		resetHistory(t, ctx, p)
	}
	// The composer of a healthy simulated page shows within a second; a
	// short readiness bound keeps the drifted-page test quick.
	// A file whose tile never shows is given up on sooner than in
	// production too (a tile shows within a second of the upload here).
	a, err := f(provider.Env{Page: p, Site: s, Sites: reg, ReadyTimeout: 5 * time.Second, TileTimeout: 8 * time.Second, StopTimeout: setup.StopTimeout})
	if err != nil {
		t.Fatalf("build adapter: %v", err)
	}
	return &Tab{H: h, Page: p, Site: s, Sites: reg, Adapter: a}
}

// resetHistory makes a tab used again forget its earlier pages. Right
// after a navigation to another site (another renderer process) Chromium
// can answer "Not attached to an active page" while it swaps the page's
// document (seen on a loaded machine): that is asked again until the new
// document is the tab's, within ctx.
func resetHistory(t *testing.T, ctx context.Context, p *browser.Page) {
	t.Helper()
	for {
		err := p.Exec(ctx, "Page.resetNavigationHistory", proto.PageResetNavigationHistory{}, nil)
		if err == nil {
			return
		}
		if !strings.Contains(err.Error(), "Not attached to an active page") || ctx.Err() != nil {
			t.Fatalf("reset the history of a tab used again: %v", err)
		}
		select {
		case <-ctx.Done():
		case <-time.After(50 * time.Millisecond):
		}
	}
}
