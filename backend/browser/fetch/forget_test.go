package fetch

import (
	"context"
	"io"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
)

// downloadURLs lists the addresses in the download list of the browser
// context bctx, as chrome://downloads shows them.
func downloadURLs(t *testing.T, ctx context.Context, b *browser.Browser, bctx proto.BrowserBrowserContextID) []string {
	t.Helper()
	p, err := openDownloadList(ctx, b, bctx)
	if err != nil {
		t.Fatalf("open the download list: %v", err)
	}
	defer p.Close(context.WithoutCancel(ctx))
	if _, err := listDownloads(ctx, p, "", "", false, 0); err != nil {
		t.Fatalf("wait for the download list: %v", err)
	}
	var urls []string
	if err := p.EvalInto(ctx, &urls, `() => document.querySelector('downloads-manager').items_.map(i => i.url)`); err != nil {
		t.Fatalf("read the download list: %v", err)
	}
	return urls
}

// The user's own profile keeps downloads in its history: what Ferry fetched
// through the browser's download manager must be gone from it after a
// restart, and a download of the user's stays.
func TestFerrysDownloadsLeaveTheBrowsersDownloadList(t *testing.T) {
	ctx := testCtx(t, 120*time.Second)
	profile := filepath.Join(t.TempDir(), "browser-profile")
	b, err := browser.Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	defer func() { b.Close(context.Background()) }()
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, fixture.URL+"/blank.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := Text(ctx, p, fixture.URL+"/set-cookie", Options{}); err != nil {
		t.Fatal(err)
	}

	// The user's download: the browser's own, of an address of its own.
	userDir := t.TempDir()
	if err := b.Call(ctx, "allow", "Browser.setDownloadBehavior", proto.BrowserSetDownloadBehavior{
		Behavior: proto.BrowserSetDownloadBehaviorBehaviorAllowAndName, DownloadPath: userDir, EventsEnabled: true,
	}, nil); err != nil {
		t.Fatal(err)
	}
	events, stop := b.Events(ctx)
	if _, err := p.Eval(ctx, `(u) => { const a = document.createElement('a'); a.href = u; a.download = ''; document.body.appendChild(a); a.click(); a.remove(); }`,
		fixture.URL+"/bytes?n=1000#the-users"); err != nil {
		t.Fatal(err)
	}
	for done := false; !done; {
		select {
		case m := <-events:
			var e proto.BrowserDownloadProgress
			done = m.Method == "Browser.downloadProgress" && m.Load(&e) && e.State == proto.BrowserDownloadProgressStateCompleted
		case <-ctx.Done():
			t.Fatal("the user's download did not complete")
		}
	}
	stop()

	for _, way := range []Way{WayURLDownload, WayDownload} {
		rc, _, err := Bytes(ctx, p, fixture.URL+"/bytes?n=200000&way="+string(way), BytesOptions{Way: way})
		if err != nil {
			t.Fatalf("%s: %v", way, err)
		}
		if n, err := io.Copy(io.Discard, rc); err != nil || n != 200000 {
			t.Fatalf("%s: read %d bytes: %v", way, n, err)
		}
		if err := rc.Close(); err != nil {
			t.Fatal(err)
		}
	}
	// A refused request leaves a failed entry; it goes too.
	if rc, meta, err := Bytes(ctx, p, fixture.URL+"/no-such.zip", BytesOptions{Way: WayURLDownload}); err != nil || meta.Status != 404 {
		t.Fatalf("a refusal: %v %+v", err, meta)
	} else {
		rc.Close()
	}

	// Ferry's clean-ups run in the background; closing the browser right
	// away, as the CLI does before it exits, waits for them.
	start := time.Now()
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	t.Logf("Close took %s with the clean-ups in flight", time.Since(start))
	b, err = browser.Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	urls := downloadURLs(t, ctx, b, "")
	if len(urls) != 1 || !strings.HasSuffix(urls[0], "#the-users") {
		t.Fatalf("after a restart the download list holds %q, want only the user's download", urls)
	}
}

// The list page is a hidden target: it never shows as a tab, in the
// browser's tab strip or in Ferry's Tabs view.
func TestTheDownloadListIsNeverATab(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	bc, err := shared.NewContext(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer bc.Dispose(context.Background())
	p, err := openDownloadList(ctx, shared, proto.BrowserBrowserContextID(bc.ID))
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close(ctx)
	var all proto.TargetGetTargetsResult
	if err := shared.Call(ctx, "list", "Target.getTargets", proto.TargetGetTargets{}, &all); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, ti := range all.TargetInfos {
		if string(ti.TargetID) == p.ID() {
			found = true
			if ti.Type == proto.TargetTargetInfoTypePage {
				t.Fatalf("the download list is a tab: %+v", ti)
			}
		}
	}
	if !found {
		t.Fatal("the download list's target is not listed at all")
	}
	if _, err := listDownloads(ctx, p, "/nowhere", "#nothing", false, 0); err != nil {
		t.Fatalf("the download list is not the page Ferry knows: %v", err)
	}
}
