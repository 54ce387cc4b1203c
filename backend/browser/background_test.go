package browser

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Ferry works in the background: no code path may bring a tab to the
// front or focus a window. This guards the package's sources against the
// CDP methods that would.
func TestNoCodePathActivatesATabOrFocusesAWindow(t *testing.T) {
	forbidden := []string{"Page.bringToFront", "PageBringToFront", "Target.activateTarget", "TargetActivateTarget",
		"Emulation.setFocusEmulationEnabled", "Browser.setWindowBounds", "newWindow"}
	files, _ := filepath.Glob("*.go")
	checked := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		checked++
		for _, m := range forbidden {
			if strings.Contains(string(src), m) {
				t.Errorf("%s uses %s", f, m)
			}
		}
	}
	if checked < 10 {
		t.Fatalf("only %d source files checked", checked)
	}
}

func TestTheDownloadWayWorksInTheDefaultBrowserContext(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	p, err := shared.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close(testCtx(t, 5*time.Second)) })
	if err := p.Navigate(ctx, fixture.URL+"/blank.html"); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Fetch(ctx, fixture.URL+"/set-cookie", FetchOptions{}); err != nil {
		t.Fatal(err)
	}
	rc, meta, err := p.FetchBytes(ctx, fixture.URL+"/bytes?n=100000", BytesOptions{Way: WayDownload, DownloadDir: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	got, err := io.ReadAll(rc)
	if err != nil || !bytes.Equal(got, cachedBody(100000)) || meta.Status != 200 {
		t.Fatalf("read %d bytes, status %d, %v", len(got), meta.Status, err)
	}
	dir := rc.(*tempFile).dir
	rc.Close()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("the temporary download directory survived Close: %v", err)
	}
}
