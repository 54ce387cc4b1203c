// Package ico turns Ferry's PNG icon into what Windows takes: .ico data
// holding the PNG at the notification area's sizes (the tray), or the PNG
// at one small size (a notification icon).
package ico

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// Windows takes icons as .ico data (fyne's tray loads its icon from an .ico
// file; a notification icon wants a small image), while the frontend ships
// one large PNG. An .ico may hold PNG images (Windows Vista and later), so
// the PNG is scaled to the sizes the notification area uses and wrapped.

// icoSizes are the images of the .ico: the notification area's 16 px at
// 100 % scale up to 32 px at 200 %.
var icoSizes = []int{16, 20, 24, 32, 48}

// FromPNG returns an .ico holding src (a PNG) scaled to each of
// icoSizes, as PNG images. Errors: src is not a PNG.
func FromPNG(src []byte) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("decode the icon PNG: %w", err)
	}
	var images [][]byte
	for _, n := range icoSizes {
		var b bytes.Buffer
		if err := png.Encode(&b, scaleSquare(img, n)); err != nil {
			return nil, fmt.Errorf("encode the %d px icon: %w", n, err)
		}
		images = append(images, b.Bytes())
	}
	var out bytes.Buffer
	le := binary.LittleEndian
	_ = binary.Write(&out, le, [3]uint16{0, 1, uint16(len(images))}) // ICONDIR: reserved, type icon, count
	offset := 6 + 16*len(images)
	for i, im := range images {
		n := icoSizes[i]
		out.Write([]byte{byte(n), byte(n), 0, 0}) // width, height, no palette, reserved
		_ = binary.Write(&out, le, [2]uint16{1, 32})
		_ = binary.Write(&out, le, [2]uint32{uint32(len(im)), uint32(offset)})
		offset += len(im)
	}
	for _, im := range images {
		out.Write(im)
	}
	return out.Bytes(), nil
}

// PNGOfSize returns src (a PNG) scaled to n×n, as a PNG.
func PNGOfSize(src []byte, n int) ([]byte, error) {
	img, err := png.Decode(bytes.NewReader(src))
	if err != nil {
		return nil, fmt.Errorf("decode the icon PNG: %w", err)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, scaleSquare(img, n)); err != nil {
		return nil, fmt.Errorf("encode the %d px icon: %w", n, err)
	}
	return b.Bytes(), nil
}

// scaleSquare scales img to n×n by averaging the source pixels each target
// pixel covers (premultiplied alpha, so transparent edges do not darken).
func scaleSquare(img image.Image, n int) *image.NRGBA {
	r := img.Bounds()
	dst := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		y0, y1 := r.Min.Y+y*r.Dy()/n, r.Min.Y+(y+1)*r.Dy()/n
		for x := 0; x < n; x++ {
			x0, x1 := r.Min.X+x*r.Dx()/n, r.Min.X+(x+1)*r.Dx()/n
			var sr, sg, sb, sa, count uint64
			for sy := y0; sy < max(y1, y0+1); sy++ {
				for sx := x0; sx < max(x1, x0+1); sx++ {
					cr, cg, cb, ca := img.At(sx, sy).RGBA() // premultiplied, 16-bit
					sr, sg, sb, sa = sr+uint64(cr), sg+uint64(cg), sb+uint64(cb), sa+uint64(ca)
					count++
				}
			}
			if sa == 0 {
				continue
			}
			dst.SetNRGBA(x, y, color.NRGBA{
				R: uint8(sr * 255 / sa), G: uint8(sg * 255 / sa), B: uint8(sb * 255 / sa),
				A: uint8(sa / count >> 8),
			})
		}
	}
	return dst
}
