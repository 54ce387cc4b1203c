package fetch

import (
	"bytes"
	"io"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/browsertest"
	"github.com/ferrydesk/ferry/backend/errs"
)

func TestABrowserThatCannotSeeFerrysFilesGetsTheBodyOverTheDevToolsConnection(t *testing.T) {
	u := browsertest.StartUnshared(t, testBinary)
	_, p := attachedTab(t, u.Endpoint)
	ctx := testCtx(t, 60*time.Second)

	// The premise: the browser cannot open a file this process made in
	// its temporary directory, which a browser sharing the files can.
	if err := p.Navigate(ctx, "file://"+u.Hidden); !errs.Has(err, errs.NavigationAborted) {
		t.Fatalf("the unshared browser opened %s (err %v): its /tmp is Ferry's", u.Hidden, err)
	}
	if err := newTab(t, "").Navigate(ctx, "file://"+u.Hidden); err != nil {
		t.Fatalf("the launched browser cannot open %s: %v", u.Hidden, err)
	}
	if err := p.Navigate(ctx, fixture.URL+"/blank.html"); err != nil {
		t.Fatal(err)
	}

	dir := t.TempDir()
	fs, err := SharesFiles(ctx, p, dir)
	if err != nil || fs.Shared || fs.How != SharingProbe || fs.Detail == "" {
		t.Fatalf("sharing %+v %v, want not shared, as the probe saw", fs, err)
	}
	t.Logf("probe: %s", fs.Detail)

	const n = 3<<20 + 4321
	t.Run("the default way streams the exact body over DevTools and says why", func(t *testing.T) {
		rc, meta, err := Bytes(ctx, p, fixture.URL+"/bytes?n="+itoa(n), BytesOptions{DownloadDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		got, err := io.ReadAll(rc)
		rc.Close()
		if err != nil || !bytes.Equal(got, cachedBody(n)) {
			t.Fatalf("read %d of %d bytes: %v", len(got), n, err)
		}
		if meta.Way != WayStream || meta.Files == nil || meta.Files.Shared || meta.Status != 200 {
			t.Fatalf("way %q files %+v status %d, want fetch-stream in a browser that does not share files", meta.Way, meta.Files, meta.Status)
		}
	})
	t.Run("the default way keeps to the cap", func(t *testing.T) {
		rc, _, err := Bytes(ctx, p, fixture.URL+"/bytes?n="+itoa(n), BytesOptions{DownloadDir: dir, MaxBytes: 1 << 20})
		if err == nil {
			_, err = io.Copy(io.Discard, rc)
			rc.Close()
		}
		if !errs.Has(err, errs.ArtifactTooLarge) {
			t.Fatalf("error %v, want artifact_too_large", err)
		}
	})
	t.Run("a missing file comes back with its status", func(t *testing.T) {
		rc, meta, err := Bytes(ctx, p, fixture.URL+"/gone.zip", BytesOptions{DownloadDir: dir})
		if err != nil {
			t.Fatal(err)
		}
		rc.Close()
		if meta.Status != 404 || meta.Way != WayStream {
			t.Fatalf("status %d way %q", meta.Status, meta.Way)
		}
	})
	t.Run("a way that needs the browser's download is refused at once, saying why", func(t *testing.T) {
		for _, way := range []Way{WayURLDownload, WayDownload} {
			_, _, err := Bytes(ctx, p, fixture.URL+"/bytes?n=10", BytesOptions{Way: way, DownloadDir: dir})
			if !errs.Has(err, errs.ArtifactFetchFailed) || errs.From(err).Evidence["files_shared"] != "false" {
				t.Fatalf("%s: error %v, want artifact_fetch_failed saying the files are not shared", way, err)
			}
		}
	})
	if left, _ := filepath.Glob(filepath.Join(dir, "*")); len(left) != 0 {
		t.Fatalf("entries left in the download directory: %v", left)
	}
}
