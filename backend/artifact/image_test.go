package artifact

import (
	"bytes"
	"context"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"testing/iotest"

	"github.com/ferrydesk/ferry/backend/errs"
)

func encoded(t *testing.T, format string, w, h int) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = byte(i * 7)
	}
	var b bytes.Buffer
	var err error
	switch format {
	case "png":
		err = png.Encode(&b, img)
	case "jpeg":
		err = jpeg.Encode(&b, img, nil)
	case "gif":
		p := image.NewPaletted(img.Rect, []color.Color{color.Black, color.White})
		err = gif.Encode(&b, p, nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// webp builds a minimal WebP container of one chunk with the payload p.
func webp(chunk string, p []byte) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+len(p)))
	b.WriteString("WEBP" + chunk)
	binary.Write(&b, binary.LittleEndian, uint32(len(p)))
	b.Write(p)
	return b.Bytes()
}

// bigPNG is a PNG header that claims w×h pixels (and nothing after it).
func bigPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 17)
	copy(ihdr, "IHDR")
	binary.BigEndian.PutUint32(ihdr[4:], w)
	binary.BigEndian.PutUint32(ihdr[8:], h)
	ihdr[12], ihdr[13] = 8, 2
	binary.Write(&b, binary.BigEndian, uint32(13))
	b.Write(ihdr)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(ihdr))
	return b.Bytes()
}

// TestCheckImageTellsAnImageByItsBytes: the four formats a site serves are
// known by their magic bytes and sized by their headers; PNG, JPEG and GIF
// must decode to the end and a WebP's RIFF length must be the file's. An
// HTML error page, JSON, a cut file and an image too large to open are
// refused with a reason.
func TestCheckImageTellsAnImageByItsBytes(t *testing.T) {
	png1 := encoded(t, "png", 40, 30)
	vp8 := make([]byte, 10)
	copy(vp8[3:], []byte{0x9d, 0x01, 0x2a})
	binary.LittleEndian.PutUint16(vp8[6:], 640)
	binary.LittleEndian.PutUint16(vp8[8:], 480)
	vp8l := []byte{0x2f, 0, 0, 0, 0}
	binary.LittleEndian.PutUint32(vp8l[1:], uint32(99)|uint32(49)<<14)
	vp8x := make([]byte, 10)
	vp8x[4], vp8x[5] = 0xff, 0x03 // 1024-1
	vp8x[7], vp8x[8] = 0xff, 0x02 // 768-1
	cases := []struct {
		name   string
		b      []byte
		format string
		w, h   int
		code   errs.Code
		reason string
	}{
		{name: "png", b: png1, format: "png", w: 40, h: 30},
		{name: "jpeg", b: encoded(t, "jpeg", 33, 17), format: "jpeg", w: 33, h: 17},
		{name: "gif", b: encoded(t, "gif", 8, 9), format: "gif", w: 8, h: 9},
		{name: "lossy webp", b: webp("VP8 ", vp8), format: "webp", w: 640, h: 480},
		{name: "lossless webp", b: webp("VP8L", vp8l), format: "webp", w: 100, h: 50},
		{name: "extended webp", b: webp("VP8X", vp8x), format: "webp", w: 1024, h: 768},
		{name: "an HTML error page", b: []byte("<!DOCTYPE html><html><body>Error</body></html>"), code: errs.ArtifactCorrupt, reason: "not_image"},
		{name: "JSON", b: []byte(`{"detail":"expired"}`), code: errs.ArtifactCorrupt, reason: "not_image"},
		{name: "nothing", b: nil, code: errs.ArtifactCorrupt, reason: "not_image"},
		{name: "a png cut short", b: png1[:len(png1)-20], code: errs.ArtifactCorrupt, reason: "truncated"},
		{name: "a webp whose RIFF length lies", b: webp("VP8 ", vp8)[:28], code: errs.ArtifactCorrupt, reason: "truncated"},
		{name: "a png of 100000x100000 pixels", b: bigPNG(100000, 100000), code: errs.ArtifactTooLarge, reason: "too_large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info, err := CheckImage(bytes.NewReader(c.b), int64(len(c.b)))
			if c.code != "" {
				e := errs.From(err)
				if e.Code != c.code || e.Evidence["reason"] != c.reason {
					t.Fatalf("CheckImage = %+v, %v; want %s (%s)", info, err, c.code, c.reason)
				}
				return
			}
			if err != nil || info.Format != c.format || info.MIME != "image/"+c.format || info.Width != c.w || info.Height != c.h {
				t.Fatalf("CheckImage = %+v, %v; want %s %dx%d", info, err, c.format, c.w, c.h)
			}
		})
	}
}

// TestSaveImageKeepsOnlyWholeImagesWithTheirProvenance: a good image gets
// the extension of its real format (whatever its name said), a free name
// beside an existing one, and a sidecar; bytes that are no image, an image
// over the limit and a source that breaks off leave nothing behind.
// FindSavedImage finds a run's image by its site file again, and not once
// its bytes changed.
func TestSaveImageKeepsOnlyWholeImagesWithTheirProvenance(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	jpg := encoded(t, "jpeg", 20, 10)
	prov := ImageProvenance{Site: "chatgpt", Session: "s1", FileID: "file_abc", ConversationURL: "https://chatgpt.com/c/x?token=secret#frag"}
	p, path, err := SaveImage(ctx, dir, "Harbour at dawn.png", bytes.NewReader(jpg), 0, prov)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(path) != "Harbour_at_dawn.jpg" || p.MIME != "image/jpeg" || p.Size != int64(len(jpg)) || p.Kind != "image" || p.ConversationURL != "https://chatgpt.com/c/x" {
		t.Fatalf("saved %s as %+v", path, p)
	}
	_, path2, err := SaveImage(ctx, dir, "Harbour at dawn.jpg", bytes.NewReader(jpg), 0, ImageProvenance{Session: "s2", FileID: "file_def"})
	if err != nil || filepath.Base(path2) != "Harbour_at_dawn-1.jpg" {
		t.Fatalf("the second save went to %s (%v), want Harbour_at_dawn-1.jpg", path2, err)
	}
	if got, gotPath, ok := FindSavedImage(dir, "s1", "file_abc"); !ok || gotPath != path || got.SHA256 != p.SHA256 {
		t.Fatalf("FindSavedImage = %+v, %s, %v", got, gotPath, ok)
	}
	if _, _, ok := FindSavedImage(dir, "s2", "file_abc"); ok {
		t.Fatal("FindSavedImage found another run's image")
	}
	before, _ := os.ReadDir(dir)
	for name, src := range map[string]*bytes.Reader{
		"html": bytes.NewReader([]byte("<html>no</html>")),
		"big":  bytes.NewReader(encoded(t, "png", 64, 64)),
	} {
		if _, _, err := SaveImage(ctx, dir, name, src, 200, prov); err == nil {
			t.Fatalf("%s: saved", name)
		}
	}
	if _, _, err := SaveImage(ctx, dir, "cut", iotest.TimeoutReader(bytes.NewReader(jpg)), 0, prov); err == nil {
		t.Fatal("a source that broke off was saved")
	}
	after, _ := os.ReadDir(dir)
	if len(after) != len(before) {
		t.Fatalf("failed saves left files: %v, before %v", after, before)
	}
	if err := os.WriteFile(path, append(jpg, 0), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, _, ok := FindSavedImage(dir, "s1", "file_abc"); ok {
		t.Fatal("FindSavedImage took an image whose bytes changed")
	}
	if e := errs.From(func() error {
		_, _, err := SaveImage(ctx, dir, "x", bytes.NewReader(encoded(t, "png", 64, 64)), 200, prov)
		return err
	}()); e.Code != errs.ArtifactTooLarge {
		t.Fatalf("over the limit: %v", e)
	}
}

// FuzzCheckImage: whatever the bytes, CheckImage answers an image within
// the pixel bound or an envelope, and never panics.
func FuzzCheckImage(f *testing.F) {
	for _, seed := range [][]byte{encoded(&testing.T{}, "png", 3, 2), encoded(&testing.T{}, "gif", 2, 2), webp("VP8X", make([]byte, 10)), bigPNG(1<<20, 1<<20), []byte("RIFF\x00\x00\x00\x00WEBPVP8L")} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		info, err := CheckImage(bytes.NewReader(b), int64(len(b)))
		if err == nil && (info.Width <= 0 || info.Height <= 0 || int64(info.Width)*int64(info.Height) > MaxImagePixels) {
			t.Fatalf("accepted %+v", info)
		}
		if err != nil && errs.CodeOf(err) == "" {
			t.Fatalf("a bare error: %v", err)
		}
	})
}
