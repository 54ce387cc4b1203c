package browser

import (
	"bytes"
	"testing"

	"golang.org/x/text/encoding/charmap"
)

func TestRecoverBytes(t *testing.T) {
	// (No 0x81, 0x8D, 0x8F, 0x90 or 0x9D: x/text decodes those to U+FFFD
	// where Chromium, following WHATWG, keeps them as C1 controls.)
	wire := []byte("data: {\"v\":\"héllo 🚢 € ‘q’\"}\n")
	mojibake, err := charmap.Windows1252.NewDecoder().Bytes(wire)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, text, contentType string
		want                    []byte
	}{
		{"UTF-8 read as windows-1252 is turned back into the wire bytes", string(mojibake), "text/event-stream", wire},
		{"text under a declared UTF-8 charset is kept as is", string(wire), "application/json; charset=utf-8", wire},
		{"text with runes windows-1252 cannot produce is kept as is", "日本語", "text/plain", []byte("日本語")},
		{"plain ASCII stays ASCII", "data: [DONE]", "", []byte("data: [DONE]")},
		{"latin-1 text that is not mojibake of UTF-8 is kept as is", "café", "text/plain", []byte("café")},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := recoverBytes(tc.text, tc.contentType); !bytes.Equal(got, tc.want) {
				t.Fatalf("got %q, want %q", got, tc.want)
			}
		})
	}
}
