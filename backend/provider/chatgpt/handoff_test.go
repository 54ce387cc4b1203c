package chatgpt

import (
	"bytes"
	"encoding/base64"
	"os"
	"regexp"
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

// TestAHandoffWithoutTopicOptionsIsFollowedByItsTokenOrItsConversation: a
// handoff frame that lists no options is followed on the topic its resume
// token (kind "topic") names in its turn_topic_id claim, and with no token
// either, by the items of its conversation only.
func TestAHandoffWithoutTopicOptionsIsFollowedByItsTokenOrItsConversation(t *testing.T) {
	sse, socket := handedOff(t)
	const topic = "conversation-turn-b57c2e10-4f1a-4c3e-9d7b-2a6e8f0c1d22"
	claims := base64.RawURLEncoding.EncodeToString([]byte(`{"conduit_uuid":"u","turn_topic_id":"` + topic + `","exp":1764464400}`))
	token := "eyJhbGciOiJIUzI1NiJ9." + claims + ".c2ln"
	bare := regexp.MustCompile(`(?m)^data: \{"type": "stream_handoff".*$`).ReplaceAll(sse,
		[]byte(`data: {"type": "stream_handoff", "conversation_id": "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11"}`))
	withToken := regexp.MustCompile(`"token": "[^"]*"`).ReplaceAll(bare, []byte(`"token": "`+token+`"`))
	// Another conversation's item, which only the conversation tells apart.
	other := bytes.ReplaceAll(socket[4], []byte("conversation-turn-0000"), []byte("conversation-turn-9999"))
	other = bytes.ReplaceAll(other, []byte("6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11"), []byte("00000000-0000-4000-8000-000000000000"))
	for name, stream := range map[string][]byte{"by its token's topic": withToken, "by its conversation": bare} {
		d := NewDecoder()
		_, _ = d.Write(stream)
		_ = d.Close()
		for i, m := range socket {
			if i == 4 {
				m = other
			}
			d.WriteSocket(m)
		}
		if r := d.Result(); r.Text != "Starting research on tides continues." || !r.Complete {
			t.Errorf("%s: result = %q complete %v", name, r.Text, r.Complete)
		}
	}
}
