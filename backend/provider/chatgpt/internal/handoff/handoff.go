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
	"encoding/base64"
	"encoding/json"
	"strings"
)

// Follower picks a handed-off turn's stream items out of socket messages.
// The zero value is ready; it is not safe for concurrent use.
type Follower struct {
	announced bool
	topics    map[string]bool
	conv      string // the turn's conversation, for items of a handoff that named no topic
	fromToken string // the topic a resume token of kind "topic" names
	seen      map[string]bool
	early     [][]byte // turn-stream messages that came before the handoff
	kept      int      // their bytes
	items     int
}

// Token reads a resume_conversation_token frame. A token of kind "topic" is
// a JWT whose turn_topic_id claim names the turn's topic: its claims are
// read here, in memory; the token is neither kept nor shown.
func (f *Follower) Token(frame map[string]any) {
	tok, _ := frame["token"].(string)
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		return
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(parts[1], "="))
	if err != nil {
		return
	}
	var claims struct {
		Topic string `json:"turn_topic_id"`
	}
	if json.Unmarshal(raw, &claims) == nil && claims.Topic != "" {
		f.fromToken = claims.Topic
	}
}

// maxEarly bounds the socket messages kept from before the handoff frame is
// decoded: the page subscribes only once it has read that frame, so what
// comes first is at most a reply's catch-up of a moment.
const maxEarly = 8 << 20

// Announce reads a stream_handoff frame (or a subscribe_ws_topic one): the
// topics its options name become the turn's (with the resume token's and a
// topic_id of the frame itself), and the messages kept from before it are
// read again. A handoff that names no topic is followed by its
// conversation: items whose conversation_id is the turn's.
func (f *Follower) Announce(frame map[string]any, deliver func(item string)) {
	add := func(id string) {
		if id == "" {
			return
		}
		if f.topics == nil {
			f.topics = map[string]bool{}
		}
		f.topics[id] = true
	}
	opts, _ := frame["options"].([]any)
	for _, o := range opts {
		o, _ := o.(map[string]any)
		id, _ := o["topic_id"].(string)
		add(id)
	}
	for _, k := range []string{"topic_id", "subscribe_ws_topic"} {
		id, _ := frame[k].(string)
		add(id)
	}
	add(f.fromToken)
	if c, _ := frame["conversation_id"].(string); c != "" {
		f.conv = c
	}
	f.announced = true
	early := f.early
	f.early, f.kept = nil, 0
	for _, m := range early {
		f.Message(m, deliver)
	}
}

// Following reports whether a handoff was announced.
func (f *Follower) Following() bool { return f.announced }

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
		Type           string `json:"type"`
		EncodedItem    string `json:"encoded_item"`
		StreamItemID   string `json:"stream_item_id"`
		ConversationID string `json:"conversation_id"`
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
	if len(e.Payload) == 0 || len(f.topics) > 0 && !f.topics[topic] {
		return n
	}
	var ts turnStream
	if json.Unmarshal(e.Payload, &ts) != nil || ts.Type != "conversation-turn-stream" || ts.Payload.Type != "stream-item" {
		return n
	}
	if len(f.topics) == 0 && (f.conv == "" || ts.Payload.ConversationID != f.conv) {
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
