// Package thumb makes the small previews the Artifacts view shows of a
// generated image: decoded, shrunk to fit a box by averaging the pixels
// each preview pixel covers, and encoded again as a PNG data: URL, which
// the page shows without being handed a file URL.
package thumb

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/draw"
	_ "image/gif" // the formats DataURL decodes
	_ "image/jpeg"
	"image/png"

	"github.com/ferrydesk/ferry/backend/errs"
)

// MaxWebP is the largest WebP DataURL hands back as it is: Go's standard
// library cannot decode one to shrink it, and a data: URL of many MiB
// would weigh on the page.
const MaxWebP = 4 << 20

// MaxPixels bounds the images DataURL decodes (decoding holds the whole
// image in memory), as the library's proof of an image does.
const MaxPixels = 16 << 20

// DataURL returns a data: URL of a preview of the image data: a PNG, JPEG
// or GIF (its first frame) shrunk to fit box×box pixels (never enlarged)
// and encoded as PNG; a WebP as its own bytes when at most MaxWebP.
// Errors: ArtifactCorrupt for bytes that do not decode as an image;
// ArtifactTooLarge for an image over MaxPixels or a WebP over MaxWebP
// (the view shows "no preview" for either).
func DataURL(data []byte, box int) (string, error) {
	if len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP" {
		if len(data) > MaxWebP {
			return "", errs.New(errs.ArtifactTooLarge, "no preview: the webp image is %d MiB, over the %d MiB shown as they are", len(data)>>20, MaxWebP>>20)
		}
		return encode("image/webp", data), nil
	}
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		return "", errs.Wrap(err, errs.ArtifactCorrupt, "no preview: the image's header does not decode: %v", err)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		return "", errs.New(errs.ArtifactTooLarge, "no preview: the image is %d×%d pixels", cfg.Width, cfg.Height)
	}
	img, _, err := image.Decode(bytes.NewReader(data))
	if err != nil {
		return "", errs.Wrap(err, errs.ArtifactCorrupt, "no preview: the image does not decode: %v", err)
	}
	var out bytes.Buffer
	if err := png.Encode(&out, Fit(img, box)); err != nil {
		return "", errs.Wrap(err, errs.Internal, "encode the preview: %v", err)
	}
	return encode("image/png", out.Bytes()), nil
}

func encode(mime string, b []byte) string {
	return "data:" + mime + ";base64," + base64.StdEncoding.EncodeToString(b)
}

// Fit returns src shrunk to fit box×box pixels, its aspect kept (each side
// at least one pixel), each pixel the average of the source pixels it
// covers; a src that fits already is copied as it is.
func Fit(src image.Image, box int) *image.RGBA {
	b := src.Bounds()
	sw, sh := b.Dx(), b.Dy()
	rgba := image.NewRGBA(image.Rect(0, 0, sw, sh))
	draw.Draw(rgba, rgba.Rect, src, b.Min, draw.Src)
	w, h := fitSize(sw, sh, box)
	if w == sw && h == sh {
		return rgba
	}
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		y0, y1 := span(y, h, sh)
		for x := range w {
			x0, x1 := span(x, w, sw)
			var r, g, bl, a, n uint32
			for sy := y0; sy < y1; sy++ {
				row := rgba.Pix[sy*rgba.Stride+x0*4 : sy*rgba.Stride+x1*4]
				for i := 0; i < len(row); i += 4 {
					r, g, bl, a = r+uint32(row[i]), g+uint32(row[i+1]), bl+uint32(row[i+2]), a+uint32(row[i+3])
					n++
				}
			}
			o := y*dst.Stride + x*4
			dst.Pix[o], dst.Pix[o+1], dst.Pix[o+2], dst.Pix[o+3] = byte(r/n), byte(g/n), byte(bl/n), byte(a/n)
		}
	}
	return dst
}

// fitSize is the size of a w×h image shrunk to fit box×box.
func fitSize(w, h, box int) (int, int) {
	if w <= box && h <= box || w <= 0 || h <= 0 {
		return w, h
	}
	if w >= h {
		return box, max(1, int(int64(h)*int64(box)/int64(w)))
	}
	return max(1, int(int64(w)*int64(box)/int64(h))), box
}

// span is the source range [from, to) that pixel i of n covers in a side
// of size pixels (n ≤ size): never empty.
func span(i, n, size int) (int, int) {
	from, to := i*size/n, (i+1)*size/n
	return from, max(to, from+1)
}
