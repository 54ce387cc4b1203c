package ico

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/color"
	"image/png"
	"testing"
)

func TestIcoFromPNGHoldsEachSizeAsAPNG(t *testing.T) {
	src := image.NewNRGBA(image.Rect(0, 0, 512, 512))
	for y := 0; y < 512; y++ {
		for x := 0; x < 512; x++ {
			if x < 256 {
				src.SetNRGBA(x, y, color.NRGBA{R: 200, G: 40, B: 40, A: 255})
			} // the right half stays transparent
		}
	}
	var in bytes.Buffer
	if err := png.Encode(&in, src); err != nil {
		t.Fatal(err)
	}
	ico, err := FromPNG(in.Bytes())
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	if le.Uint16(ico[0:]) != 0 || le.Uint16(ico[2:]) != 1 || int(le.Uint16(ico[4:])) != len(icoSizes) {
		t.Fatalf("ICONDIR = % x, want reserved 0, type 1, %d images", ico[:6], len(icoSizes))
	}
	for i, n := range icoSizes {
		e := ico[6+16*i:]
		size, off := le.Uint32(e[8:]), le.Uint32(e[12:])
		if int(e[0]) != n || int(e[1]) != n || le.Uint16(e[6:]) != 32 {
			t.Errorf("entry %d = %dx%d at %d bpp, want %dx%d at 32", i, e[0], e[1], le.Uint16(e[6:]), n, n)
		}
		if int(off+size) > len(ico) {
			t.Fatalf("entry %d runs past the file", i)
		}
		img, err := png.Decode(bytes.NewReader(ico[off : off+size]))
		if err != nil {
			t.Fatalf("entry %d is not a PNG: %v", i, err)
		}
		if b := img.Bounds(); b.Dx() != n || b.Dy() != n {
			t.Errorf("entry %d's PNG is %v, want %dx%d", i, b, n, n)
		}
		if _, _, _, a := img.At(n-1, n/2).RGBA(); a != 0 {
			t.Errorf("entry %d: the transparent half is not transparent", i)
		}
		if r, g, _, a := img.At(0, n/2).RGBA(); a>>8 != 255 || r>>8 != 200 || g>>8 != 40 {
			t.Errorf("entry %d: the opaque half lost its colour: %d %d %d", i, r>>8, g>>8, a>>8)
		}
	}
	if _, err := FromPNG([]byte("not a png")); err == nil {
		t.Error("FromPNG accepted bytes that are not a PNG")
	}
	small, err := PNGOfSize(in.Bytes(), 32)
	if err != nil {
		t.Fatal(err)
	}
	if img, err := png.Decode(bytes.NewReader(small)); err != nil || img.Bounds().Dx() != 32 {
		t.Errorf("PNGOfSize(32) = %v, %v", img.Bounds(), err)
	}
}
