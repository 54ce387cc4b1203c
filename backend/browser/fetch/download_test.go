package fetch

import (
	"bytes"
	"io"
	"os"
	"testing"
	"time"
)

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
	if _, err := Text(ctx, p, fixture.URL+"/set-cookie", Options{}); err != nil {
		t.Fatal(err)
	}
	rc, meta, err := Bytes(ctx, p, fixture.URL+"/bytes?n=100000", BytesOptions{Way: WayDownload, DownloadDir: t.TempDir()})
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
