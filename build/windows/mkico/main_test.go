package main

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func square(n int, c color.NRGBA) image.Image {
	img := image.NewNRGBA(image.Rect(0, 0, n, n))
	for y := 0; y < n; y++ {
		for x := 0; x < n; x++ {
			img.SetNRGBA(x, y, c)
		}
	}
	img.SetNRGBA(0, 0, color.NRGBA{}) // one transparent corner
	return img
}

func TestEncode(t *testing.T) {
	blue := color.NRGBA{R: 0x2e, G: 0x6b, B: 0xe6, A: 0xff}
	var buf bytes.Buffer
	if err := Encode(&buf, []image.Image{square(256, blue), square(16, blue), square(48, blue), square(32, blue)}); err != nil {
		t.Fatal(err)
	}
	ico := buf.Bytes()
	le := binary.LittleEndian
	if le.Uint16(ico[2:]) != 1 || le.Uint16(ico[4:]) != 4 {
		t.Fatalf("header: type %d, count %d", le.Uint16(ico[2:]), le.Uint16(ico[4:]))
	}
	for i, want := range []int{16, 32, 48, 256} {
		e := ico[6+16*i:]
		w, size, off := int(e[0]), le.Uint32(e[8:]), le.Uint32(e[12:])
		if w == 0 {
			w = 256
		}
		if w != want || int(e[1]) != want%256 {
			t.Errorf("entry %d is %d px, want %d", i, w, want)
		}
		if int(off+size) > len(ico) {
			t.Fatalf("entry %d points past the end", i)
		}
		data := ico[off : off+size]
		t.Run(fmt.Sprintf("the %d px image is what its entry says", want), func(t *testing.T) {
			if want == 256 {
				img, err := png.Decode(bytes.NewReader(data))
				if err != nil || img.Bounds().Dx() != 256 {
					t.Fatalf("256 px entry is no 256 px PNG: %v", err)
				}
				return
			}
			if le.Uint32(data[4:]) != uint32(want) || le.Uint32(data[8:]) != uint32(2*want) || le.Uint16(data[14:]) != 32 {
				t.Fatalf("bitmap header: %dx%d, %d bpp", le.Uint32(data[4:]), le.Uint32(data[8:]), le.Uint16(data[14:]))
			}
			// The top-left pixel is the last row's first pixel (bottom-up), transparent in the mask.
			top := 40 + (want-1)*want*4
			if data[top+3] != 0 {
				t.Errorf("top-left alpha %d, want 0", data[top+3])
			}
			if b, g, r, a := data[40], data[41], data[42], data[43]; b != blue.B || g != blue.G || r != blue.R || a != 0xff {
				t.Errorf("bottom-left BGRA %x %x %x %x, want the blue", b, g, r, a)
			}
			maskRow := (want + 31) / 32 * 4
			mask := data[40+want*want*4:]
			if len(mask) != maskRow*want || mask[(want-1)*maskRow]&0x80 == 0 || mask[0]&0x80 != 0 {
				t.Errorf("AND mask: transparent corner not set or opaque pixel set")
			}
		})
	}
}

func TestEncodeRefuses(t *testing.T) {
	for name, imgs := range map[string][]image.Image{
		"no images":    nil,
		"a non-square": {image.NewNRGBA(image.Rect(0, 0, 16, 32))},
		"over 256 px":  {image.NewNRGBA(image.Rect(0, 0, 512, 512))},
		"a size twice": {image.NewNRGBA(image.Rect(0, 0, 16, 16)), image.NewNRGBA(image.Rect(0, 0, 16, 16))},
	} {
		t.Run(name, func(t *testing.T) {
			if err := Encode(&bytes.Buffer{}, imgs); err == nil {
				t.Error("encoded")
			}
		})
	}
}
