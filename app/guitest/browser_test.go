//go:build gui

package guitest

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
	"github.com/go-rod/rod/lib/launcher"
	"github.com/go-rod/rod/lib/proto"
)

const devTags = "dev,webkit2_41"

// front is the one headless Chromium the package's tests show the
// frontend in: a launch costs about a CPU-second, and the tests ran about
// 36 of them beside the apps' own browsers.
var front struct {
	sync.Mutex
	b *rod.Browser
	l *launcher.Launcher
}

// launchBrowser gives the calling test a browser for the frontend of its
// own: an incognito context (its own storage, cookies and pages) of the
// package's shared Chromium, closed with the test.
func launchBrowser(t testing.TB) *rod.Browser {
	t.Helper()
	front.Lock()
	defer front.Unlock()
	if front.b == nil {
		l := launcher.New().Bin("/usr/bin/chromium").Headless(true).NoSandbox(true).Leakless(false).
			Set("disable-gpu").Set("disable-quic").Set("no-first-run").
			Set("disable-background-networking").Set("disable-component-update").Set("disable-sync")
		u, err := l.Launch()
		if err != nil {
			t.Fatalf("launch chromium: %v", err)
		}
		b := rod.New().ControlURL(u)
		if err := b.Connect(); err != nil {
			l.Kill()
			t.Fatalf("connect to chromium: %v", err)
		}
		front.b, front.l = b, l
	}
	b, err := front.b.Incognito()
	if err != nil {
		t.Fatalf("open a browser context: %v", err)
	}
	t.Cleanup(func() {
		_ = proto.TargetDisposeBrowserContext{BrowserContextID: b.BrowserContextID}.Call(front.b)
	})
	return b
}

// closeFront stops the shared Chromium (TestMain, after every test).
func closeFront() {
	front.Lock()
	defer front.Unlock()
	if front.b == nil {
		return
	}
	_ = front.b.Close()
	front.l.Kill()
	front.l.Cleanup()
	front.b, front.l = nil, nil
}

// devApp is the dev-tag binary serving the frontend and the Wails IPC on a
// loopback port while its own window runs under Xvfb.
type devApp struct {
	*appProcess
	url string
}

// startDevApp runs the dev binary for the data directory under dir (with
// the app's own arguments args, such as --demo) and waits until its
// window's frontend is ready and the dev server answers.
func startDevApp(t testing.TB, bin, dir string, args ...string) *devApp {
	t.Helper()
	return startDevAppEnv(t, bin, dir, nil, args...)
}

// startDevAppEnv is startDevApp with the environment variables env added
// (such as another DISPLAY).
func startDevAppEnv(t testing.TB, bin, dir string, env []string, args ...string) *devApp {
	t.Helper()
	port := freePort(t)
	addr := "127.0.0.1:" + strconv.Itoa(port)
	dist := filepath.Join(repoRoot(t), "frontend", "dist")
	p := startApp(t, bin, isolatedEnv(dir, env...), append([]string{"-devserver", addr, "-assetdir", dist, "-loglevel", "Warning"}, args...)...)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := p.waitLine(ctx, `msg="frontend ready"`); err != nil {
		t.Fatal(err)
	}
	url := "http://" + addr + "/"
	for {
		resp, err := http.Get(url)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				break
			}
		}
		select {
		case <-ctx.Done():
			t.Fatalf("dev server at %s never answered: %v", url, err)
		case <-time.After(50 * time.Millisecond):
		}
	}
	return &devApp{appProcess: p, url: url}
}

// stop sends SIGTERM, as a session manager does, and expects a clean exit.
func (a *devApp) stop(t testing.TB) {
	t.Helper()
	if err := a.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatalf("signal: %v", err)
	}
	code, err := a.waitExit(closeWithin)
	if err != nil {
		t.Fatal(err)
	}
	if code != 0 {
		t.Errorf("exit status %d after SIGTERM, want 0", code)
	}
}

// openShell opens the app's page in a fresh tab sized like the window and
// waits until the shell has loaded its state.
func openShell(t testing.TB, b *rod.Browser, url string) *rod.Page {
	t.Helper()
	page, err := b.Page(proto.TargetCreateTarget{URL: "about:blank"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = page.Close() })
	// Pages of other tests share the browser: this one behaves as the
	// focused page whichever was opened last.
	if err := (proto.EmulationSetFocusEmulationEnabled{Enabled: true}).Call(page); err != nil {
		t.Fatal(err)
	}
	page = page.Timeout(eventWithin)
	if err := page.SetViewport(&proto.EmulationSetDeviceMetricsOverride{Width: 1100, Height: 720, DeviceScaleFactor: 1}); err != nil {
		t.Fatal(err)
	}
	if err := page.Navigate(url); err != nil {
		t.Fatal(err)
	}
	// The sidebar footer shows the data directory's health once Status and
	// Settings have loaded.
	if _, err := page.Element(".sidebar .health"); err != nil {
		t.Fatalf("shell did not load: %v", err)
	}
	return page
}

// viewTitle returns the heading of the shown view.
func viewTitle(t *testing.T, page *rod.Page) string {
	t.Helper()
	return page.MustElement(`[data-testid=view-title]`).MustText()
}

// waitTitle waits until the shown view's heading is want.
func waitTitle(t *testing.T, page *rod.Page, want string) {
	t.Helper()
	err := page.Wait(rod.Eval(`(w) => document.querySelector('[data-testid=view-title]')?.textContent === w`, want))
	if err != nil {
		t.Fatalf("view %q never showed (showing %q): %v", want, viewTitle(t, page), err)
	}
}

// evalJSON evaluates an async JS function and returns its JSON-able result.
func evalJSON(t testing.TB, page *rod.Page, js string, args ...any) map[string]any {
	t.Helper()
	res, err := page.Evaluate(rod.Eval(js, args...).ByPromise())
	if err != nil {
		t.Fatalf("evaluate: %v", err)
	}
	var out map[string]any
	if err := res.Value.Unmarshal(&out); err != nil {
		t.Fatalf("result %s: %v", res.Value.Raw(), err)
	}
	return out
}

// savePageShot saves the page as PNG in dir (and $FERRY_SCREENSHOT_DIR).
func savePageShot(t *testing.T, page *rod.Page, dir, name string) string {
	t.Helper()
	b, err := page.Screenshot(false, &proto.PageCaptureScreenshot{Format: proto.PageCaptureScreenshotFormatPng})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	keepScreenshot(t, p)
	return p
}

func str(v any) string { return fmt.Sprint(v) }
