// Command mkico writes a Windows icon (.ico) from square PNG images, one
// image per size: `go run ./build/windows/mkico -o ferry.ico 16.png 32.png 48.png 256.png`.
// scripts/package-windows.sh runs it on the PNGs rsvg-convert renders from
// build/appicon.svg, so the icon in the .exe files and the installer has the
// same single source as the Linux icons.
//
// Images under 256 px are stored as 32-bit BGRA bitmaps with an AND mask
// (what every Windows version and resource tool reads); 256 px is stored as
// PNG, as Windows Vista and later expect for that size.
package main

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"io"
	"os"
	"sort"
)

func main() {
	out := flag.String("o", "", "the .ico file to write")
	flag.Parse()
	if *out == "" || flag.NArg() == 0 {
		fmt.Fprintln(os.Stderr, "usage: mkico -o FILE.ico IMAGE.png...")
		os.Exit(2)
	}
	if err := run(*out, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "mkico:", err)
		os.Exit(1)
	}
}

func run(out string, inputs []string) error {
	var imgs []image.Image
	for _, in := range inputs {
		img, err := readPNG(in)
		if err != nil {
			return err
		}
		imgs = append(imgs, img)
	}
	var buf bytes.Buffer
	if err := Encode(&buf, imgs); err != nil {
		return fmt.Errorf("encode %s: %w", out, err)
	}
	if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("write icon: %w", err)
	}
	return nil
}

func readPNG(name string) (image.Image, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("open image: %w", err)
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, fmt.Errorf("decode %s: %w", name, err)
	}
	return img, nil
}

// Encode writes imgs as one icon, smallest first. Each image must be square
// and 1 to 256 pixels wide; two images of the same size are an error.
func Encode(w io.Writer, imgs []image.Image) error {
	if len(imgs) == 0 {
		return errors.New("no images")
	}
	sorted := append([]image.Image(nil), imgs...)
	sort.SliceStable(sorted, func(i, j int) bool { return sorted[i].Bounds().Dx() < sorted[j].Bounds().Dx() })
	datas := make([][]byte, len(sorted))
	for i, img := range sorted {
		b := img.Bounds()
		if b.Dx() != b.Dy() || b.Dx() < 1 || b.Dx() > 256 {
			return fmt.Errorf("image %d is %dx%d: want square, 1 to 256 px", i, b.Dx(), b.Dy())
		}
		if i > 0 && sorted[i-1].Bounds().Dx() == b.Dx() {
			return fmt.Errorf("two images of %d px", b.Dx())
		}
		var err error
		if b.Dx() == 256 {
			var p bytes.Buffer
			err = png.Encode(&p, img)
			datas[i] = p.Bytes()
		} else {
			datas[i] = bitmap(img)
		}
		if err != nil {
			return fmt.Errorf("encode %d px: %w", b.Dx(), err)
		}
	}

	// ICONDIR, then one ICONDIRENTRY per image, then the images.
	le := binary.LittleEndian
	head := make([]byte, 6+16*len(sorted))
	le.PutUint16(head[2:], 1) // type: icon
	le.PutUint16(head[4:], uint16(len(sorted)))
	offset := len(head)
	for i, img := range sorted {
		e := head[6+16*i:]
		size := img.Bounds().Dx()
		e[0], e[1] = byte(size%256), byte(size%256) // 0 means 256
		le.PutUint16(e[4:], 1)                      // colour planes
		le.PutUint16(e[6:], 32)                     // bits per pixel
		le.PutUint32(e[8:], uint32(len(datas[i])))
		le.PutUint32(e[12:], uint32(offset))
		offset += len(datas[i])
	}
	if _, err := w.Write(head); err != nil {
		return err
	}
	for _, d := range datas {
		if _, err := w.Write(d); err != nil {
			return err
		}
	}
	return nil
}

// bitmap is img as an icon's DIB: a BITMAPINFOHEADER of twice the height,
// the BGRA rows bottom-up, then the 1-bit AND mask (set where transparent),
// each mask row padded to 4 bytes.
func bitmap(img image.Image) []byte {
	b := img.Bounds()
	n := b.Dx()
	maskRow := (n + 31) / 32 * 4
	out := make([]byte, 40+n*n*4+maskRow*n)
	le := binary.LittleEndian
	le.PutUint32(out[0:], 40)
	le.PutUint32(out[4:], uint32(n))
	le.PutUint32(out[8:], uint32(2*n))
	le.PutUint16(out[12:], 1)
	le.PutUint16(out[14:], 32)
	le.PutUint32(out[20:], uint32(n*n*4+maskRow*n))
	px := out[40:]
	mask := out[40+n*n*4:]
	for y := 0; y < n; y++ {
		row := n - 1 - y // bottom-up
		for x := 0; x < n; x++ {
			c := color.NRGBAModel.Convert(img.At(b.Min.X+x, b.Min.Y+y)).(color.NRGBA)
			i := (row*n + x) * 4
			px[i], px[i+1], px[i+2], px[i+3] = c.B, c.G, c.R, c.A
			if c.A == 0 {
				mask[row*maskRow+x/8] |= 0x80 >> (x % 8)
			}
		}
	}
	return out
}
