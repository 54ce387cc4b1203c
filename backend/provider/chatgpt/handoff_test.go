package chatgpt

import (
	"bytes"
	"os"
	"testing"
)

// handedOff is the handoff capture: the response up to stream_handoff, and
// the messages the page's socket then received, one per line (a connect
// reply, another topic's news, the subscription's reply with two catch-ups,
// one of them again on its own, another turn's item, and the last items in
// one array ending with an inner [DONE]).
func handedOff(t *testing.T) (sse []byte, socket [][]byte) {
	t.Helper()
	sse, err := os.ReadFile("testdata/chatgpt_handoff.sse")
	if err != nil {
		t.Fatal(err)
	}
	ws, err := os.ReadFile("testdata/chatgpt_handoff.ws")
	if err != nil {
		t.Fatal(err)
	}
	return sse, bytes.Split(bytes.TrimSpace(ws), []byte("\n"))
}

func TestAHandedOffTurnCompletesFromThePagesSocket(t *testing.T) {
	sse, socket := handedOff(t)
	d := NewDecoder()
	_, _ = d.Write(sse)
	_ = d.Close()
	if r := d.Result(); !r.Handoff || r.Complete {
		t.Fatalf("after the response: handoff %v complete %v", r.Handoff, r.Complete)
	}
	took := 0
	for _, m := range socket {
		took += d.WriteSocket(m)
	}
	r := d.Result()
	const want = "Starting research on tides continues."
	if r.Text != want || !r.Complete || r.FinishReason != "stop" || r.Model != "gpt-5-2" {
		t.Errorf("result = %q complete %v finish %q model %q; want %q complete stop gpt-5-2", r.Text, r.Complete, r.FinishReason, r.Model, want)
	}
	// Five items of the turn, each once: the repeated catch-up and the
	// other turn's item are not taken.
	if took != 5 {
		t.Errorf("took %d items, want 5", took)
	}
	if r.Err != nil || r.Malformed != 0 {
		t.Errorf("err %v malformed %d", r.Err, r.Malformed)
	}
}

func TestSocketMessagesBeforeTheHandoffFrameAreReadOnceItNamesTheTopic(t *testing.T) {
	sse, socket := handedOff(t)
	d := NewDecoder()
	// The capture can deliver the socket's first messages before the
	// response's last bytes.
	cut := bytes.Index(sse, []byte(`data: {"type": "stream_handoff"`))
	_, _ = d.Write(sse[:cut])
	for _, m := range socket[:3] {
		if n := d.WriteSocket(m); n != 0 {
			t.Fatalf("took %d items before the handoff named the topic", n)
		}
	}
	_, _ = d.Write(sse[cut:])
	for _, m := range socket[3:] {
		d.WriteSocket(m)
	}
	if r := d.Result(); r.Text != "Starting research on tides continues." || !r.Complete {
		t.Errorf("result = %q complete %v", r.Text, r.Complete)
	}
}

func TestSocketMessagesWithoutAHandoffChangeNothing(t *testing.T) {
	raw, err := os.ReadFile("testdata/chatgpt_basic.sse")
	if err != nil {
		t.Fatal(err)
	}
	_, socket := handedOff(t)
	d := NewDecoder()
	_, _ = d.Write(raw)
	before := d.Result()
	for _, m := range socket {
		if n := d.WriteSocket(m); n != 0 {
			t.Errorf("a turn that was not handed off took %d socket items", n)
		}
	}
	if after := d.Result(); after.Text != before.Text || after.Complete != before.Complete {
		t.Errorf("socket messages changed an inline turn: %q → %q", before.Text, after.Text)
	}
}
