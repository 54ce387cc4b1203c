// Package simimage makes the simulator's generated images: deterministic
// PNG bytes from a seed, so that a test anywhere can compute the bytes a
// simulated site served and check a saved file against them byte for byte.
package simimage

import (
	"bytes"
	"crypto/sha256"
	"image"
	"image/png"
)

// PNG returns the image of seed at w×h pixels, encoded as PNG. The same
// seed and size always give the same bytes.
func PNG(seed string, w, h int) []byte {
	sum := sha256.Sum256([]byte(seed))
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	// Bands of the seed's colours under a grain of noise, so the file is
	// about as large as a generated photograph's (2–3 MB at 1024×1024).
	x32 := uint32(sum[0]) | uint32(sum[1])<<8 | uint32(sum[2])<<16 | uint32(sum[3])<<24 | 1
	for y := range h {
		for x := range w {
			x32 ^= x32 << 13
			x32 ^= x32 >> 17
			x32 ^= x32 << 5
			k := (x/16 + y/16) % 8
			o := y*img.Stride + x*4
			img.Pix[o+0] = sum[k*4] ^ byte(x32)
			img.Pix[o+1] = sum[k*4+1] ^ byte(x32>>8)
			img.Pix[o+2] = sum[k*4+2] ^ byte(x32>>16)&0x3f
			img.Pix[o+3] = 0xff
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		panic(err) // an in-memory NRGBA always encodes
	}
	return b.Bytes()
}
