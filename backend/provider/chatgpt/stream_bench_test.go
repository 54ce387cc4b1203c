package chatgpt

import (
	"fmt"
	"strings"
	"testing"
)

// longChatGPTStream builds a v1 stream whose answer is n bare appends of a
// 20-byte token (the common shape: one explicit append, then bare deltas).
func longChatGPTStream(n int) []byte {
	var b strings.Builder
	b.WriteString("event: delta_encoding\ndata: \"v1\"\n\n")
	b.WriteString(`event: delta` + "\n" + `data: {"p":"","o":"add","v":{"message":{"id":"m","author":{"role":"assistant"},"content":{"content_type":"text","parts":[""]},"status":"in_progress","metadata":{"model_slug":"gpt-5-2"},"recipient":"all","channel":null},"conversation_id":"c","error":null},"c":0}` + "\n\n")
	b.WriteString(`event: delta` + "\n" + `data: {"p":"/message/content/parts/0","o":"append","v":"start"}` + "\n\n")
	for i := 0; i < n; i++ {
		fmt.Fprintf(&b, "event: delta\ndata: {\"v\": \"token %06d é🙂 \"}\n\n", i)
	}
	b.WriteString(`data: {"type":"message_stream_complete","conversation_id":"c"}` + "\n\ndata: [DONE]\n\n")
	return []byte(b.String())
}

// BenchmarkChatGPTLongAnswer decodes a ~100 KB answer in 4 KiB chunks and
// reads the partial result after every chunk, as an adapter does.
func BenchmarkChatGPTLongAnswer(b *testing.B) {
	body := longChatGPTStream(5000)
	b.SetBytes(int64(len(body)))
	for b.Loop() {
		d := NewDecoder()
		for off := 0; off < len(body); off += 4096 {
			end := min(off+4096, len(body))
			_, _ = d.Write(body[off:end])
			_ = d.Result()
		}
		_ = d.Close()
		if r := d.Result(); !r.Complete || len(r.Text) < 100_000 {
			b.Fatalf("bad result: complete=%v len=%d", r.Complete, len(r.Text))
		}
	}
}
