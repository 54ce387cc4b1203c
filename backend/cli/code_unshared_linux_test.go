package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/browsertest"
	"github.com/ferrydesk/ferry/backend/browser/fetch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestCodeWithABrowserThatDoesNotShareFerrysFiles runs `ferry code`
// attached to a Chromium whose downloads land where Ferry cannot read them
// (its own mount namespace, a fresh tmpfs over /tmp: a browser on another
// machine, WSL's Windows Chrome, or Linux Chromium for a ferry.exe under
// Wine). The zip comes over the DevTools connection, verified and saved,
// and the receipt says so.
func TestCodeWithABrowserThatDoesNotShareFerrysFiles(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
	defer cancel()
	srv := sim.New(providertest.DefaultSimOptions...)
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	u := browsertest.StartUnshared(t, providertest.ChromiumBin, srv.ChromiumFlags()...)

	// The premise, asked of the browser itself: it cannot open a file
	// Ferry's side made in the temporary directory.
	b, err := browser.Attach(ctx, u.Endpoint)
	if err != nil {
		t.Fatal(err)
	}
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Navigate(ctx, "file://"+u.Hidden); !errs.Has(err, errs.NavigationAborted) {
		t.Fatalf("the browser opened %s (err %v): it shares Ferry's /tmp", u.Hidden, err)
	}
	_ = p.Close(ctx)
	_ = b.Close(ctx)

	out := t.TempDir()
	r := ferry(t, nil, "code", "--site", "chatgpt", "--browser-url", u.Endpoint, "--data-dir", t.TempDir(), "--out", out,
		"--timeout", "60s", "--json", "Build a greeting CLI", sim.Directive(sim.ScenarioCodeZip))
	var rc Receipt
	if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
		t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
	}
	if r.code != 0 || !rc.OK || rc.Layers.Download.Status != "passed" {
		t.Fatalf("exit %d ok %v download %+v error %+v\nstderr %s", r.code, rc.OK, rc.Layers.Download, rc.Error, r.stderr)
	}
	if len(rc.Zips) != 1 || !rc.Zips[0].Verified {
		t.Fatalf("zips %+v", rc.Zips)
	}
	z := rc.Zips[0]
	got, err := os.ReadFile(z.SavedPath)
	want, _ := sim.ZipBytes(sim.ScenarioCodeZip, 0, 1)
	if err != nil || filepath.Dir(z.SavedPath) != out || !bytes.Equal(got, want) {
		t.Fatalf("saved %s (%v): not the sandbox's zip", z.SavedPath, err)
	}
	tr := z.Transport
	if tr == nil || tr.Way != string(fetch.WayStream) || tr.FilesShared == nil || *tr.FilesShared || !strings.HasPrefix(tr.Sharing, fetch.SharingProbe) {
		t.Fatalf("transport %+v, want fetch-stream because the probe found the files not shared", tr)
	}
	if !strings.Contains(rc.Layers.Download.Detail, string(fetch.WayStream)) || !strings.Contains(rc.Layers.Download.Detail, "does not share Ferry's files") {
		t.Fatalf("download layer %q does not name the way and the unshared files", rc.Layers.Download.Detail)
	}
	onDisk, err := os.ReadFile(rc.Path)
	if err != nil || !bytes.Contains(onDisk, []byte(`"filesShared": false`)) {
		t.Fatalf("the receipt on disk (%v) does not record the unshared files:\n%s", err, onDisk)
	}
	t.Logf("ferry code through an unshared browser: %s; %s", r.took, tr.Sharing)
}
