package stream

import (
	"bytes"
	"encoding/binary"
	"math/rand"
	"reflect"
	"testing"
	"unicode/utf8"
)

// fuzzDecoder checks, for any input, that the decoder does not panic, that
// its text is valid UTF-8, and that feeding the input in chunks of varying
// sizes gives exactly the result of feeding it whole.
func fuzzDecoder(f *testing.F, name string) {
	for _, fx := range fixtures {
		if fx.decoder != name {
			continue
		}
		body := readFixture(f, fx.file)
		f.Add(body, uint16(7), uint8(3))
		// Single units make small seeds that mutate into new shapes faster
		// than whole captures do.
		for _, unit := range units(name, body) {
			if len(unit) > 0 && len(unit) < 600 {
				f.Add(unit, uint16(1), uint8(0))
			}
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, first uint16, step uint8) {
		want := decodeChunks(t, name, body)
		if !utf8.ValidString(want.Text) {
			t.Fatalf("text is not valid UTF-8: %q", want.Text)
		}
		var chunks [][]byte
		rest := body
		n := int(first)
		for len(rest) > 0 {
			if n > len(rest) {
				n = len(rest)
			}
			chunks = append(chunks, rest[:n])
			rest = rest[n:]
			n = int(step)%13 + 1 + n%5
		}
		got := decodeChunks(t, name, chunks...)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("re-chunked result differs:\n got %+v\nwant %+v", got, want)
		}
	})
}

// units cuts a capture into the decoder's units: SSE events, NDJSON lines,
// Gemini frames (pairs of lines) or Connect frames.
func units(name string, body []byte) [][]byte {
	switch name {
	case Grok:
		return bytes.SplitAfter(body, []byte("\n"))
	case Gemini:
		lines := bytes.SplitAfter(body, []byte("\n"))
		var out [][]byte
		for i := 0; i+1 < len(lines); i += 2 {
			out = append(out, append(append([]byte(nil), lines[i]...), lines[i+1]...))
		}
		return out
	case Kimi:
		var out [][]byte
		for len(body) >= 5 {
			n := int(binary.BigEndian.Uint32(body[1:5]))
			if 5+n > len(body) {
				break
			}
			out = append(out, body[:5+n])
			body = body[5+n:]
		}
		return out
	}
	return bytes.SplitAfter(body, []byte("\n\n"))
}

func FuzzChatGPT(f *testing.F)  { fuzzDecoder(f, ChatGPT) }
func FuzzDeepSeek(f *testing.F) { fuzzDecoder(f, DeepSeek) }
func FuzzGrok(f *testing.F)     { fuzzDecoder(f, Grok) }
func FuzzClaude(f *testing.F)   { fuzzDecoder(f, Claude) }
func FuzzKimi(f *testing.F)     { fuzzDecoder(f, Kimi) }
func FuzzGemini(f *testing.F)   { fuzzDecoder(f, Gemini) }

// TestMutatedCapturesStayStableUnderRechunking is a deterministic cousin of
// the fuzz targets that runs on every `go test`: seeded random damage to each
// capture (flipped, dropped, inserted bytes, truncation) must neither panic
// nor make the result depend on chunking.
func TestMutatedCapturesStayStableUnderRechunking(t *testing.T) {
	rng := rand.New(rand.NewSource(4))
	for _, fx := range fixtures {
		base := readFixture(t, fx.file)
		for i := 0; i < 150; i++ {
			b := append([]byte(nil), base...)
			for k := 0; k < 1+rng.Intn(6) && len(b) > 0; k++ {
				j := rng.Intn(len(b))
				switch rng.Intn(4) {
				case 0:
					b[j] = byte(rng.Intn(256))
				case 1:
					b = append(b[:j], b[j+1:]...)
				case 2:
					b = append(b[:j], append([]byte{byte(rng.Intn(256))}, b[j:]...)...)
				case 3:
					b = b[:j+1]
				}
			}
			want := decodeChunks(t, fx.decoder, b)
			cut := rng.Intn(len(b) + 1)
			got := decodeChunks(t, fx.decoder, b[:cut], b[cut:])
			if !reflect.DeepEqual(got, want) || !utf8.ValidString(got.Text) {
				t.Fatalf("%s mutation %d split at %d: got %+v want %+v", fx.file, i, cut, got, want)
			}
		}
	}
}
