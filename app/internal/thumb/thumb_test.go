package thumb

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/gif"
	"image/jpeg"
	"image/png"
	"strings"
	"testing"

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
		err = gif.Encode(&b, image.NewPaletted(img.Rect, []color.Color{color.Black, color.White}), nil)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// decodeURL reads back the PNG of a data: URL.
func decodeURL(t *testing.T, u string) image.Image {
	t.Helper()
	b64, ok := strings.CutPrefix(u, "data:image/png;base64,")
	if !ok {
		t.Fatalf("%.40s… is not a PNG data URL", u)
	}
	b, err := base64.StdEncoding.DecodeString(b64)
	if err != nil {
		t.Fatal(err)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("the preview is no PNG: %v", err)
	}
	return img
}

func TestDataURLShrinksAnImageToFitTheBox(t *testing.T) {
	cases := []struct {
		name   string
		format string
		w, h   int
		ww, wh int
	}{
		{"a wide PNG fits the box's width", "png", 1024, 512, 256, 128},
		{"a tall JPEG fits the box's height", "jpeg", 100, 1000, 25, 256},
		{"a square GIF becomes the box", "gif", 600, 600, 256, 256},
		{"a small image is never enlarged", "png", 40, 30, 40, 30},
		{"a thin strip keeps one pixel", "png", 2000, 3, 256, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			u, err := DataURL(encoded(t, c.format, c.w, c.h), 256)
			if err != nil {
				t.Fatal(err)
			}
			if b := decodeURL(t, u).Bounds(); b.Dx() != c.ww || b.Dy() != c.wh {
				t.Errorf("preview %d×%d, want %d×%d", b.Dx(), b.Dy(), c.ww, c.wh)
			}
		})
	}
}

func TestFitAveragesThePixelsAPreviewPixelCovers(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 4, 2))
	for x := range 4 {
		for y := range 2 {
			v := uint8(0)
			if x%2 == 1 {
				v = 200
			}
			src.SetRGBA(x, y, color.RGBA{v, 100, 0, 255})
		}
	}
	got := Fit(src, 2)
	if b := got.Bounds(); b.Dx() != 2 || b.Dy() != 1 {
		t.Fatalf("fit %v, want 2×1", b)
	}
	for x := range 2 {
		if c := got.RGBAAt(x, 0); c != (color.RGBA{100, 100, 0, 255}) {
			t.Errorf("pixel %d is %v, want the average {100 100 0 255}", x, c)
		}
	}
}

// webp builds a minimal WebP container of one VP8L chunk.
func webp(payload int) []byte {
	var b bytes.Buffer
	b.WriteString("RIFF")
	binary.Write(&b, binary.LittleEndian, uint32(4+8+payload))
	b.WriteString("WEBPVP8L")
	binary.Write(&b, binary.LittleEndian, uint32(payload))
	b.Write(make([]byte, payload))
	return b.Bytes()
}

func TestDataURLOfAWebPIsItsOwnBytesUnderTheCap(t *testing.T) {
	small := webp(100)
	u, err := DataURL(small, 256)
	if err != nil || u != "data:image/webp;base64,"+base64.StdEncoding.EncodeToString(small) {
		t.Fatalf("DataURL(small webp) = %.60s…, %v; want its bytes as they are", u, err)
	}
	if _, err := DataURL(webp(MaxWebP), 256); !errs.Has(err, errs.ArtifactTooLarge) {
		t.Errorf("DataURL(webp over the cap): %v, want artifact_too_large", err)
	}
}

func TestDataURLRefusesWhatIsNoImage(t *testing.T) {
	cut := encoded(t, "png", 64, 64)
	cases := []struct {
		name string
		data []byte
		code errs.Code
	}{
		{"an HTML page", []byte("<html>sign in</html>"), errs.ArtifactCorrupt},
		{"a PNG cut short", cut[:len(cut)/2], errs.ArtifactCorrupt},
		{"an image of too many pixels", bigPNGHeader(8192, 4096), errs.ArtifactTooLarge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if _, err := DataURL(c.data, 256); !errs.Has(err, c.code) {
				t.Errorf("DataURL: %v, want %s", err, c.code)
			}
		})
	}
}

// bigPNGHeader is the start of a PNG that claims w×h pixels.
func bigPNGHeader(w, h int) []byte {
	img := image.NewGray(image.Rect(0, 0, 1, 1))
	var b bytes.Buffer
	png.Encode(&b, img)
	out := b.Bytes()
	binary.BigEndian.PutUint32(out[16:], uint32(w)) // IHDR's width and height
	binary.BigEndian.PutUint32(out[20:], uint32(h))
	binary.BigEndian.PutUint32(out[29:], crc32.ChecksumIEEE(out[12:29]))
	return out
}
