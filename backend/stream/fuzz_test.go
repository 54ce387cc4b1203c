package stream

import (
	"os"
	"fmt"
	"time"
	"reflect"
	"testing"
	"unicode/utf8"
)

// fuzzDecoder checks, for any input, that the decoder does not panic, that
// its text is valid UTF-8, and that feeding the input in chunks of varying
// sizes gives exactly the result of feeding it whole.
func fuzzDecoder(f *testing.F, name string) {
	for _, fx := range fixtures {
		if fx.decoder == name {
			f.Add(readFixture(f, fx.file), uint16(7), uint8(3))
		}
	}
	f.Fuzz(func(t *testing.T, body []byte, first uint16, step uint8) {
		tm := time.AfterFunc(3*time.Second, func() { panic(fmt.Sprintf("SLOW len=%d first=%d step=%d body=%q", len(body), first, step, body[:min(len(body), 300)])) })
		defer tm.Stop()
		st := time.Now()
		defer func() {
			fh, _ := os.OpenFile("/tmp/fuzztimes.log", os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			fmt.Fprintf(fh, "%v len=%d first=%d step=%d\n", time.Since(st), len(body), first, step)
			fh.Close()
		}()
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

func FuzzChatGPT(f *testing.F)  { fuzzDecoder(f, ChatGPT) }
func FuzzDeepSeek(f *testing.F) { fuzzDecoder(f, DeepSeek) }
func FuzzGrok(f *testing.F)     { fuzzDecoder(f, Grok) }
func FuzzClaude(f *testing.F)   { fuzzDecoder(f, Claude) }
func FuzzKimi(f *testing.F)     { fuzzDecoder(f, Kimi) }
func FuzzGemini(f *testing.F)   { fuzzDecoder(f, Gemini) }
