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
	for y := range h {
		for x := range w {
			// Bands of the seed's colours with a little noise, so the file
			// is neither trivially small nor incompressible.
			k := (x/16 + y/16) % 8
			n := byte((x*31 + y*17) ^ int(sum[(x+y)%32]))
			img.Pix[y*img.Stride+x*4+0] = sum[k*4] ^ n&0x0f
			img.Pix[y*img.Stride+x*4+1] = sum[k*4+1]
			img.Pix[y*img.Stride+x*4+2] = sum[k*4+2]
			img.Pix[y*img.Stride+x*4+3] = 0xff
		}
	}
	var b bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(&b, img); err != nil {
		panic(err) // an in-memory NRGBA always encodes
	}
	return b.Bytes()
}
