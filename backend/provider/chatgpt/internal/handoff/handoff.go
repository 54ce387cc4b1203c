// Package handoff follows a ChatGPT turn that the conversation stream hands
// to the page's WebSocket. The stream's stream_handoff frame names the
// turn's topic (an option of type subscribe_ws_topic, beside
// resume_sse_endpoint) and ends; the page subscribes to that topic on the
// one socket it keeps for the user, and the rest of the turn arrives as
// messages of the form
//
//	{"type":"message","topic_id":"conversation-turn-…","offset":"<ms>-<seq>",
//	 "payload":{"type":"conversation-turn-stream","payload":{"type":"stream-item",
//	  "encoded_item":"event: delta\ndata: {…}\n\n","stream_item_id":"…",…}}}
//
// alone or several in a JSON array, beside messages of the socket's other
// topics. The subscription's reply replays what the topic carried before it
// ("catchups"), and a socket that reconnects subscribes again from its last
// offset: an item can arrive twice and is taken once, by its
// stream_item_id. A Follower does no I/O: the decoder feeds it the messages
// the tab's sockets received and gets back the SSE text of each new item.
package handoff

import (
	"bytes"
	"encoding/json"
)

// Follower picks a handed-off turn's stream items out of socket messages.
// The zero value is ready; it is not safe for concurrent use.
type Follower struct {
	topics map[string]bool
	seen   map[string]bool
	early  [][]byte // turn-stream messages that came before the handoff named its topic
	kept   int      // their bytes
	items  int
}

// maxEarly bounds the socket messages kept from before the handoff frame is
// decoded: the page subscribes only once it has read that frame, so what
// comes first is at most a reply's catch-up of a moment.
const maxEarly = 8 << 20

// Announce reads a stream_handoff frame: the topics its options name become
// the turn's, and the messages kept from before it are read again. It
// reports whether the frame named a topic.
func (f *Follower) Announce(frame map[string]any, deliver func(item string)) bool {
	opts, _ := frame["options"].([]any)
	for _, o := range opts {
		o, _ := o.(map[string]any)
		if id, _ := o["topic_id"].(string); id != "" {
			if f.topics == nil {
				f.topics = map[string]bool{}
			}
			f.topics[id] = true
		}
	}
	if len(f.topics) == 0 {
		return false
	}
	early := f.early
	f.early, f.kept = nil, 0
	for _, m := range early {
		f.Message(m, deliver)
	}
	return true
}

// Following reports whether the handoff named the turn's topic.
func (f *Follower) Following() bool { return len(f.topics) > 0 }

// Items is how many stream items were taken from the socket.
func (f *Follower) Items() int { return f.items }

// Message reads one message a socket of the tab received and hands deliver
// the SSE text of each stream item of the turn's topics not taken before,
// in the order they came. It returns how many it delivered.
func (f *Follower) Message(msg []byte, deliver func(item string)) int {
	if !bytes.Contains(msg, []byte("conversation-turn-stream")) {
		return 0 // another topic's news, a heartbeat, a reply without catch-ups
	}
	if !f.Following() {
		if f.kept+len(msg) <= maxEarly {
			f.early = append(f.early, append([]byte(nil), msg...))
			f.kept += len(msg)
		}
		return 0
	}
	var list []envelope
	if trimmed := bytes.TrimSpace(msg); len(trimmed) > 0 && trimmed[0] == '[' {
		if json.Unmarshal(trimmed, &list) != nil {
			return 0
		}
	} else {
		var one envelope
		if json.Unmarshal(trimmed, &one) != nil {
			return 0
		}
		list = []envelope{one}
	}
	n := 0
	for _, e := range list {
		n += f.envelope(e, "", deliver)
	}
	return n
}

// envelope is one message of the socket: a topic's message, or the reply to
// a command (a subscription's, with its catch-ups).
type envelope struct {
	Type    string          `json:"type"`
	TopicID string          `json:"topic_id"`
	Payload json.RawMessage `json:"payload"`
	Reply   *struct {
		TopicID  string     `json:"topic_id"`
		Catchups []envelope `json:"catchups"`
	} `json:"reply"`
}

type turnStream struct {
	Type    string `json:"type"`
	Payload struct {
		Type         string `json:"type"`
		EncodedItem  string `json:"encoded_item"`
		StreamItemID string `json:"stream_item_id"`
	} `json:"payload"`
}

func (f *Follower) envelope(e envelope, topic string, deliver func(string)) int {
	if e.TopicID != "" {
		topic = e.TopicID
	}
	n := 0
	if e.Reply != nil {
		for _, c := range e.Reply.Catchups {
			n += f.envelope(c, e.Reply.TopicID, deliver)
		}
	}
	if !f.topics[topic] || len(e.Payload) == 0 {
		return n
	}
	var ts turnStream
	if json.Unmarshal(e.Payload, &ts) != nil || ts.Type != "conversation-turn-stream" || ts.Payload.Type != "stream-item" {
		return n
	}
	if id := ts.Payload.StreamItemID; id != "" {
		if f.seen[id] {
			return n
		}
		if f.seen == nil {
			f.seen = map[string]bool{}
		}
		f.seen[id] = true
	}
	f.items++
	deliver(ts.Payload.EncodedItem)
	return n + 1
}
