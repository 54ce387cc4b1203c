package library

import (
	"archive/zip"
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/record"
)

var fixedClock = artifact.WithClock(func() time.Time { return time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC) })

// zipOf is a zip of one file name holding data.
func zipOf(t *testing.T, name, data string) []byte {
	t.Helper()
	var b bytes.Buffer
	w := zip.NewWriter(&b)
	f, err := w.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	f.Write([]byte(data))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// pngOf is a w×h PNG whose pixels depend on seed.
func pngOf(t *testing.T, seed byte, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i)*3 + seed
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// saveImage saves data as an image the way a run does, through
// artifact.SaveImage, so its sidecar is real.
func saveImage(t *testing.T, dir, name string, data []byte) (*artifact.ImageProvenance, string) {
	t.Helper()
	prov := artifact.ImageProvenance{Site: "chatgpt", Session: "20261130-010203-abcdef", ConversationURL: "https://chatgpt.com/c/abc", Title: "A ferry at dawn"}
	p, path, err := artifact.SaveImage(context.Background(), dir, name, bytes.NewReader(data), 0, prov, fixedClock)
	if err != nil {
		t.Fatalf("save %s: %v", name, err)
	}
	return p, path
}

func write(t *testing.T, path string, data []byte) {
	t.Helper()
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLibraryListsZips(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	prov := artifact.Provenance{Site: "chatgpt", ConversationURL: "https://chatgpt.com/c/abc"}

	good, err := artifact.Save(ctx, dir, "good.zip", bytes.NewReader(zipOf(t, "app/main.go", "package main\n")), prov, fixedClock)
	if err != nil {
		t.Fatalf("save the good zip: %v", err)
	}
	slip, _ := artifact.Save(ctx, dir, "slip.zip", bytes.NewReader(zipOf(t, "../../.ssh/authorized_keys", "ssh-rsa x")), prov, fixedClock)
	if slip == nil || !slip.Quarantined {
		t.Fatalf("the zip-slip archive was not quarantined: %+v", slip)
	}
	changed, err := artifact.Save(ctx, dir, "changed.zip", bytes.NewReader(zipOf(t, "a.txt", "one")), prov, fixedClock)
	if err != nil {
		t.Fatal(err)
	}
	write(t, changed.Path, zipOf(t, "a.txt", "two"))
	bare := filepath.Join(dir, "bare.zip")
	write(t, bare, zipOf(t, "x.txt", "x"))
	broken := filepath.Join(dir, "broken.zip")
	write(t, broken, zipOf(t, "y.txt", "y"))
	write(t, broken+artifact.SidecarSuffix, []byte("{not json"))
	// Neither a temporary nor a sidecar is an item.
	write(t, filepath.Join(dir, ".ferry-123.zip.part"), []byte("partial"))

	items, byName := listByName(t, ctx, dir)
	if len(items) != 5 {
		t.Fatalf("library lists %d items (%v), want 5", len(items), byName)
	}

	cases := []struct {
		name, file string
		status     Status
		reason     string
	}{
		{"a saved good zip is verified", "good.zip", StatusVerified, ""},
		{"a quarantined zip says which rule it broke", "slip.zip", StatusQuarantined, string(artifact.ReasonUnsafeName)},
		{"a zip changed after verification is unverified", "changed.zip", StatusUnverified, ReasonChanged},
		{"a zip without a sidecar is unverified", "bare.zip", StatusUnverified, ReasonNoProvenance},
		{"a zip with a malformed sidecar is unverified", "broken.zip", StatusUnverified, ReasonBadProvenance},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it, ok := byName[c.file]
			if !ok {
				t.Fatalf("%s is not listed", c.file)
			}
			if it.Status != c.status || it.Reason != c.reason {
				t.Errorf("status %s reason %q, want %s %q (why: %s)", it.Status, it.Reason, c.status, c.reason, it.Why)
			}
			if c.status != StatusVerified && it.Why == "" {
				t.Errorf("a %s zip does not say why", it.Status)
			}
			if !filepath.IsAbs(it.Path) {
				t.Errorf("path %q is not absolute", it.Path)
			}
			if it.Kind != "" || it.MIME != "" || it.Width != 0 {
				t.Errorf("a zip reads as kind %q mime %q width %d", it.Kind, it.MIME, it.Width)
			}
		})
	}

	t.Run("a verified zip carries its size, digest and file list", func(t *testing.T) {
		it := byName["good.zip"]
		st, _ := os.Stat(good.Path)
		if it.Size != st.Size() || it.SHA256 != good.Verdict.SHA256 {
			t.Errorf("size %d sha %s, want %d %s", it.Size, it.SHA256, st.Size(), good.Verdict.SHA256)
		}
		if len(it.Files) != 1 || it.Files[0].Name != "app/main.go" || it.Site != "chatgpt" {
			t.Errorf("files %+v site %q", it.Files, it.Site)
		}
		if it.Path != good.Path {
			t.Errorf("path %q, want %q", it.Path, good.Path)
		}
	})

	t.Run("a zip's JSON names no image field", func(t *testing.T) {
		b, err := json.Marshal(byName["good.zip"])
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"kind", "mime", "width", "height", "title"} {
			if _, ok := m[k]; ok {
				t.Errorf("a zip's JSON holds %q: %s", k, b)
			}
		}
	})

	t.Run("the newest file comes first", func(t *testing.T) {
		later := time.Now().Add(time.Hour)
		if err := os.Chtimes(bare, later, later); err != nil {
			t.Fatal(err)
		}
		items, err := List(ctx, dir)
		if err != nil {
			t.Fatal(err)
		}
		if items[0].Name != "bare.zip" {
			t.Errorf("first item %s, want bare.zip", items[0].Name)
		}
	})

	t.Run("a missing directory is an empty library", func(t *testing.T) {
		items, err := List(ctx, filepath.Join(dir, "nope"))
		if err != nil || items == nil || len(items) != 0 {
			t.Errorf("List(missing) = %v, %v; want an empty list", items, err)
		}
	})
}

// TestLibraryListsImages: a generated image saved with its sidecar is a
// verified item telling what its bytes are; an image whose bytes changed,
// one without a sidecar, one whose sidecar is a zip's and bytes that are no
// image are unverified with the reason; temporaries and sidecars are not
// listed, nor an image in quarantine.
func TestLibraryListsImages(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good, goodPath := saveImage(t, dir, "ferry at dawn.png", pngOf(t, 1, 64, 48))
	_, changedPath := saveImage(t, dir, "changed.png", pngOf(t, 2, 20, 20))
	write(t, changedPath, pngOf(t, 3, 20, 20))
	bare := filepath.Join(dir, "bare.jpg")
	write(t, bare, pngOf(t, 4, 10, 12)) // a PNG under a .jpg name: its bytes say what it is
	zipSide := filepath.Join(dir, "zipside.png")
	write(t, zipSide, pngOf(t, 5, 8, 8))
	side, _ := json.Marshal(artifact.Provenance{Site: "chatgpt", FileName: "zipside.png"})
	write(t, zipSide+artifact.SidecarSuffix, side)
	// An HTML page a sidecar vouches for (written by hand: SaveImage
	// would never keep it) is still no image.
	_, fakePath := saveImage(t, dir, "fake.png", pngOf(t, 6, 8, 8))
	html := []byte("<html><body>sign in</body></html>")
	write(t, fakePath, html)
	var fp artifact.ImageProvenance
	b, _ := os.ReadFile(fakePath + artifact.SidecarSuffix)
	if err := json.Unmarshal(b, &fp); err != nil {
		t.Fatal(err)
	}
	fp.Size, fp.SHA256 = int64(len(html)), sha(html)
	b, _ = json.Marshal(fp)
	write(t, fakePath+artifact.SidecarSuffix, b)
	// Not items: a temporary of SaveImage, a stray file, an image in
	// quarantine.
	write(t, filepath.Join(dir, ".ferry-99.img.part"), pngOf(t, 7, 4, 4))
	write(t, filepath.Join(dir, "notes.txt"), []byte("hello"))
	if err := os.MkdirAll(filepath.Join(dir, artifact.QuarantineDir), 0o700); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, artifact.QuarantineDir, "odd.png"), pngOf(t, 8, 4, 4))

	items, byName := listByName(t, ctx, dir)
	if len(items) != 5 {
		t.Fatalf("library lists %d items, want 5: %v", len(items), names(items))
	}

	cases := []struct {
		name, file string
		status     Status
		reason     string
	}{
		{"a saved image is verified", filepath.Base(goodPath), StatusVerified, ""},
		{"an image changed after it was saved is unverified", "changed.png", StatusUnverified, ReasonChanged},
		{"an image without a sidecar is unverified", "bare.jpg", StatusUnverified, ReasonNoProvenance},
		{"an image whose sidecar is a zip's is unverified", "zipside.png", StatusUnverified, ReasonBadProvenance},
		{"bytes that are no image are unverified, whatever the sidecar says", "fake.png", StatusUnverified, "not_image"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			it, ok := byName[c.file]
			if !ok {
				t.Fatalf("%s is not listed (%v)", c.file, names(items))
			}
			if it.Kind != record.ArtifactImage {
				t.Errorf("kind %q, want image", it.Kind)
			}
			if it.Status != c.status || it.Reason != c.reason {
				t.Errorf("status %s reason %q, want %s %q (why: %s)", it.Status, it.Reason, c.status, c.reason, it.Why)
			}
			if c.status != StatusVerified && it.Why == "" {
				t.Errorf("a %s image does not say why", it.Status)
			}
		})
	}

	t.Run("a verified image tells its bytes, its pixels and its story", func(t *testing.T) {
		it := byName[filepath.Base(goodPath)]
		if it.Path != goodPath || it.SHA256 != good.SHA256 || it.Size != good.Size {
			t.Errorf("path %s sha %s size %d, want %s %s %d", it.Path, it.SHA256, it.Size, goodPath, good.SHA256, good.Size)
		}
		if it.MIME != "image/png" || it.Width != 64 || it.Height != 48 {
			t.Errorf("mime %q %d×%d, want image/png 64×48", it.MIME, it.Width, it.Height)
		}
		if it.Title != "A ferry at dawn" || it.Site != "chatgpt" || it.Session != good.Session || it.ConversationURL != good.ConversationURL || !it.VerifiedAt.Equal(good.SavedAt) {
			t.Errorf("story %+v", it)
		}
		if it.Files == nil || len(it.Files) != 0 {
			t.Errorf("an image lists entries %v, want an empty list", it.Files)
		}
	})
	t.Run("an image's pixels are read from its bytes, not its name", func(t *testing.T) {
		if it := byName["bare.jpg"]; it.MIME != "image/png" || it.Width != 10 || it.Height != 12 {
			t.Errorf("bare.jpg reads as %q %d×%d, want image/png 10×12", it.MIME, it.Width, it.Height)
		}
	})

	t.Run("At judges one file alone, as List does", func(t *testing.T) {
		for _, want := range items {
			got, ok, err := At(ctx, dir, want.Path)
			if err != nil || !ok || got.Status != want.Status || got.Reason != want.Reason || got.SHA256 != want.SHA256 || got.MIME != want.MIME {
				t.Errorf("At(%s) = %+v, %v, %v; want %+v", want.Name, got, ok, err, want)
			}
		}
	})
	t.Run("At lists nothing where List lists nothing", func(t *testing.T) {
		outside := filepath.Join(t.TempDir(), "ferry at dawn.png")
		write(t, outside, pngOf(t, 1, 64, 48))
		paths := []string{outside}
		link := filepath.Join(dir, "link.png")
		if err := os.Symlink(goodPath, link); err == nil { // Windows may refuse a link without the privilege
			paths = append(paths, link)
		}
		for _, p := range append(paths,
			goodPath+artifact.SidecarSuffix,
			filepath.Join(dir, ".ferry-99.img.part"),
			filepath.Join(dir, "notes.txt"),
			filepath.Join(dir, artifact.QuarantineDir, "odd.png"),
			filepath.Join(dir, "gone.png"),
			filepath.Join(dir, "sub", "..", "..", filepath.Base(dir), "nothing.png"),
			"ferry at dawn.png",
		) {
			if it, ok, err := At(ctx, dir, p); ok || err != nil {
				t.Errorf("At(%s) = %+v, %v, %v; want nothing", p, it, ok, err)
			}
		}
	})
}

// listByName lists dir's library, failing the test on an error, and
// indexes the items by name.
func listByName(t *testing.T, ctx context.Context, dir string) ([]Item, map[string]Item) {
	t.Helper()
	items, err := List(ctx, dir)
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	byName := map[string]Item{}
	for _, it := range items {
		byName[it.Name] = it
	}
	return items, byName
}

func names(items []Item) []string {
	var out []string
	for _, it := range items {
		out = append(out, it.Name)
	}
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func TestLibraryListsReports(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	saveReport := func(title, md string) (*artifact.ReportProvenance, string) {
		t.Helper()
		p, path, err := artifact.SaveReport(ctx, dir, &artifact.Report{Markdown: md, Title: title, Header: "Research completed in 12m · 19 citations · 328 searches", Citations: 19, Searches: 328, Sources: 120},
			artifact.ReportProvenance{Site: "chatgpt", Session: "run-" + title, ConversationURL: "https://chatgpt.com/c/6974e0a3-0000-4000-8000-000000000001"})
		if err != nil {
			t.Fatal(err)
		}
		return p, path
	}
	good, goodPath := saveReport("Harbour trade", "# Harbour trade\n\nNineteen sources agree [Harbour Authority](https://example.org/harbour).")
	_, changedPath := saveReport("Changed", "# Changed\n\nthe report as the site wrote it, long enough.")
	write(t, changedPath, []byte("# Changed\n\nedited afterwards"))
	write(t, filepath.Join(dir, "notes.md"), []byte("# My own notes\n"))
	_, binPath := saveReport("Binary", "# Binary\n\nbecomes bytes that are no text at all.")
	bin := []byte("# Binary\x00\xff\xfe")
	write(t, binPath, bin)
	var bp artifact.ReportProvenance
	b, _ := os.ReadFile(binPath + artifact.SidecarSuffix)
	if err := json.Unmarshal(b, &bp); err != nil {
		t.Fatal(err)
	}
	bp.Size, bp.SHA256 = int64(len(bin)), sha(bin)
	b, _ = json.Marshal(bp)
	write(t, binPath+artifact.SidecarSuffix, b)
	imgSide := filepath.Join(dir, "imageside.md")
	write(t, imgSide, []byte("# text\n"))
	side, _ := json.Marshal(artifact.ImageProvenance{Kind: "image", Site: "chatgpt"})
	write(t, imgSide+artifact.SidecarSuffix, side)
	write(t, filepath.Join(dir, ".ferry-12.md.part"), []byte("# partial"))

	items, byName := listByName(t, ctx, dir)
	if len(items) != 5 {
		t.Fatalf("library lists %d items, want 5: %v", len(items), names(items))
	}
	for _, c := range []struct {
		name, file string
		status     Status
		reason     string
	}{
		{"a saved report is verified", filepath.Base(goodPath), StatusVerified, ""},
		{"a report changed after it was saved is unverified", filepath.Base(changedPath), StatusUnverified, ReasonChanged},
		{"a Markdown file Ferry did not save is unverified", "notes.md", StatusUnverified, ReasonNoProvenance},
		{"bytes that are no text are unverified, whatever the sidecar says", filepath.Base(binPath), StatusUnverified, ReasonVerdictFailed},
		{"a report whose sidecar is an image's is unverified", "imageside.md", StatusUnverified, ReasonBadProvenance},
	} {
		t.Run(c.name, func(t *testing.T) {
			it, ok := byName[c.file]
			if !ok {
				t.Fatalf("%s is not listed (%v)", c.file, names(items))
			}
			if it.Kind != record.ArtifactReport || it.MIME != "text/markdown" {
				t.Errorf("kind %q mime %q, want a Markdown report", it.Kind, it.MIME)
			}
			if it.Status != c.status || it.Reason != c.reason {
				t.Errorf("status %s reason %q, want %s %q (why: %s)", it.Status, it.Reason, c.status, c.reason, it.Why)
			}
			if c.status != StatusVerified && it.Why == "" {
				t.Errorf("a %s report does not say why", it.Status)
			}
		})
	}
	t.Run("a verified report tells its header, its sources and its story", func(t *testing.T) {
		it := byName[filepath.Base(goodPath)]
		if it.SHA256 != good.SHA256 || it.Title != "Harbour trade" || it.Header != good.Header || it.Sources != 120 ||
			it.Site != "chatgpt" || it.Session != "run-Harbour trade" || !it.VerifiedAt.Equal(good.SavedAt) {
			t.Errorf("item %+v", it)
		}
		if at, ok, err := At(ctx, dir, goodPath); err != nil || !ok || at.Status != StatusVerified || at.Kind != record.ArtifactReport {
			t.Errorf("At = %+v, %v, %v; want the verified report", at, ok, err)
		}
	})
}
