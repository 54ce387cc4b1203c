package browser

import (
	"mime"
	"strings"
	"unicode/utf8"
)

// cp1252High maps the runes that WHATWG windows-1252 decodes bytes
// 0x80–0x9F to, back to the bytes. (The five bytes the codepage leaves
// undefined decode to U+0080–U+009F themselves.)
var cp1252High = map[rune]byte{
	'€': 0x80, '‚': 0x82, 'ƒ': 0x83, '„': 0x84, '…': 0x85, '†': 0x86, '‡': 0x87, 'ˆ': 0x88,
	'‰': 0x89, 'Š': 0x8A, '‹': 0x8B, 'Œ': 0x8C, 'Ž': 0x8E, '‘': 0x91, '’': 0x92, '“': 0x93,
	'”': 0x94, '•': 0x95, '–': 0x96, '—': 0x97, '˜': 0x98, '™': 0x99, 'š': 0x9A, '›': 0x9B,
	'œ': 0x9C, 'ž': 0x9E, 'Ÿ': 0x9F,
}

// recoverBytes turns the text Network.getResponseBody gives for a body it
// did not base64-encode back into the bytes on the wire. Chromium decoded
// those bytes with the response's charset, and without one (SSE and NDJSON
// responses often have none) as windows-1252, which turns UTF-8 into
// mojibake. A declared UTF-8 charset means the text is already right;
// otherwise, when every rune is one windows-1252 can produce, the bytes are
// re-encoded, and kept if they form valid UTF-8 (which mojibake of UTF-8
// always does).
func recoverBytes(text, contentType string) []byte {
	if _, params, err := mime.ParseMediaType(contentType); err == nil {
		if cs := strings.ToLower(params["charset"]); cs == "utf-8" || cs == "utf8" {
			return []byte(text)
		}
	}
	out := make([]byte, 0, len(text))
	for _, r := range text {
		switch b, ok := cp1252High[r]; {
		case ok:
			out = append(out, b)
		case r < 0x100:
			out = append(out, byte(r))
		default:
			return []byte(text) // not windows-1252 output: the text was decoded otherwise
		}
	}
	if !utf8.Valid(out) {
		return []byte(text)
	}
	return out
}
