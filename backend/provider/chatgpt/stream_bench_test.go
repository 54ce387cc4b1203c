package chatgpt

import (
	"encoding/json"
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

// BenchmarkChatGPTLongAnswerHandedOff decodes the same ~100 KB answer
// handed off to the page's socket after its first delta: each later SSE
// event is a stream item of the turn's topic, one socket message each (as
// the page receives them), read as Ferry reads them.
func BenchmarkChatGPTLongAnswerHandedOff(b *testing.B) {
	body := longChatGPTStream(5000)
	events := strings.SplitAfter(string(body), "\n\n")
	head := strings.Join(events[:3], "") + `data: {"type":"stream_handoff","conversation_id":"c","options":[{"type":"subscribe_ws_topic","topic_id":"conversation-turn-t"}]}` + "\n\ndata: [DONE]\n\n"
	var msgs [][]byte
	size := len(head)
	for i, ev := range events[3:] {
		if ev == "" {
			continue
		}
		item, _ := json.Marshal(ev)
		m := fmt.Sprintf(`{"type":"message","topic_id":"conversation-turn-t","offset":"1784872208700-%d","payload":{"type":"conversation-turn-stream","payload":{"type":"stream-item","conversation_id":"c","turn_id":"t","encoded_item":%s,"stream_item_id":"i%d"}}}`, i, item, i)
		msgs = append(msgs, []byte(m))
		size += len(m)
	}
	b.SetBytes(int64(size))
	for b.Loop() {
		d := NewDecoder()
		_, _ = d.Write([]byte(head))
		_ = d.Close()
		for i, m := range msgs {
			d.WriteSocket(m)
			if i%40 == 0 {
				_ = d.Result()
			}
		}
		if r := d.Result(); !r.Complete || len(r.Text) < 100_000 {
			b.Fatalf("bad result: complete=%v len=%d", r.Complete, len(r.Text))
		}
	}
}
