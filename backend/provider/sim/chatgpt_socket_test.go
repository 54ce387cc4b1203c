package sim_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// socketMsg is one message of ChatGPT's user socket, as providers.md gives
// it: a topic's message, or a command's reply.
type socketMsg struct {
	ID      int    `json:"id"`
	Type    string `json:"type"`
	TopicID string `json:"topic_id"`
	Offset  string `json:"offset"`
	Payload struct {
		Type    string `json:"type"`
		Payload struct {
			Type         string  `json:"type"`
			EncodedItem  string  `json:"encoded_item"`
			StreamItemID string  `json:"stream_item_id"`
			Parent       *string `json:"parent_stream_item_id"`
		} `json:"payload"`
	} `json:"payload"`
	Reply struct {
		Type     string      `json:"type"`
		TopicID  string      `json:"topic_id"`
		Catchups []socketMsg `json:"catchups"`
	} `json:"reply"`
}

// dialUserSocket asks backend-api for the socket's address and opens it.
func (a *gptAPI) dialUserSocket(ctx context.Context) *websocket.Conn {
	a.t.Helper()
	resp, body := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/celsius/ws/user"), nil, true, true)
	var addr struct {
		URL string `json:"websocket_url"`
	}
	if resp.StatusCode != 200 || json.Unmarshal(body, &addr) != nil || !strings.HasPrefix(addr.URL, "wss://chatgpt.com/") {
		a.t.Fatalf("celsius: HTTP %d %s", resp.StatusCode, body)
	}
	c, _, err := websocket.Dial(ctx, addr.URL, &websocket.DialOptions{HTTPClient: http1(a.client)})
	if err != nil {
		a.t.Fatalf("dial %s: %v", addr.URL, err)
	}
	a.t.Cleanup(func() { c.CloseNow() })
	return c
}

// http1 is the client without HTTP/2, which a socket's upgrade needs.
func http1(c *http.Client) *http.Client {
	tr := c.Transport.(*http.Transport).Clone()
	tr.ForceAttemptHTTP2 = false
	tr.TLSClientConfig.NextProtos = []string{"http/1.1"}
	return &http.Client{Transport: tr}
}

// read reads one socket message: one object or an array of them.
func readSocket(ctx context.Context, t *testing.T, c *websocket.Conn) []socketMsg {
	t.Helper()
	_, b, err := c.Read(ctx)
	if err != nil {
		t.Fatalf("read the socket: %v", err)
	}
	var list []socketMsg
	if strings.HasPrefix(string(b), "[") {
		err = json.Unmarshal(b, &list)
	} else {
		var one socketMsg
		err = json.Unmarshal(b, &one)
		list = []socketMsg{one}
	}
	if err != nil {
		t.Fatalf("socket message %s: %v", b, err)
	}
	return list
}

func TestChatGPTLongTurnsMoveToTheUserSocket(t *testing.T) {
	a := newGPTAPI(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if resp, _ := a.do("GET", sim.URL(sim.ChatGPT, "/backend-api/celsius/ws/user"), nil, false, true); resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("the socket's address without the bearer: HTTP %d, want 401", resp.StatusCode)
	}
	if _, resp, err := websocket.Dial(ctx, sim.URL(sim.ChatGPT, "/p3/ws/user/user-sim?verify=1-00"), &websocket.DialOptions{HTTPClient: http1(a.client)}); err == nil || resp == nil || resp.StatusCode != http.StatusUnauthorized {
		t.Fatalf("a socket with a forged verify was opened (%v)", err)
	}

	// The response ends at the handoff, naming the topic; the answer is not in it.
	dec, resp, raw := a.ask("Tell me at length "+sim.Directive(sim.ScenarioStreamHandoff, "at", "3"), "")
	if resp.StatusCode != 200 || dec.Complete || !dec.Done {
		t.Fatalf("handed-off response: HTTP %d complete %v done %v", resp.StatusCode, dec.Complete, dec.Done)
	}
	var topic string
	for _, line := range strings.Split(string(raw), "\n") {
		var f struct {
			Type    string `json:"type"`
			Options []struct {
				Type    string `json:"type"`
				TopicID string `json:"topic_id"`
			} `json:"options"`
		}
		if json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &f) == nil && f.Type == "stream_handoff" {
			for _, o := range f.Options {
				if o.Type == "subscribe_ws_topic" {
					topic = o.TopicID
				}
			}
		}
	}
	if !strings.HasPrefix(topic, "conversation-turn-") {
		t.Fatalf("no subscribe_ws_topic option in the handoff:\n%s", raw)
	}

	c := a.dialUserSocket(ctx)
	cmd, _ := json.Marshal([]any{
		map[string]any{"id": 1, "command": map[string]any{"type": "connect", "presence": map[string]any{"type": "presence", "state": "foreground"}}},
		map[string]any{"id": 2, "command": map[string]any{"type": "subscribe", "topic_id": topic, "offset": "0"}},
	})
	if err := c.Write(ctx, websocket.MessageText, cmd); err != nil {
		t.Fatal(err)
	}
	// Items come in the reply's catch-ups and then live; each names its
	// parent, the one before it.
	var items []socketMsg
	complete := false
	for !complete {
		for _, m := range readSocket(ctx, t, c) {
			batch := []socketMsg{m}
			if m.Type == "reply" {
				batch = m.Reply.Catchups
			}
			for _, it := range batch {
				if it.Type != "message" || it.TopicID != topic || it.Payload.Type != "conversation-turn-stream" || it.Payload.Payload.Type != "stream-item" {
					t.Fatalf("unexpected message %+v", it)
				}
				items = append(items, it)
				complete = complete || it.Payload.Payload.EncodedItem == "data: [DONE]\n\n"
			}
		}
	}
	var rest strings.Builder
	for i, it := range items {
		p := it.Payload.Payload
		if (i == 0) != (p.Parent == nil) || i > 0 && *p.Parent != items[i-1].Payload.Payload.StreamItemID {
			t.Fatalf("item %d (%s) names parent %v", i, p.StreamItemID, p.Parent)
		}
		rest.WriteString(p.EncodedItem)
	}
	whole, err := refDecode(append(raw, rest.String()...))
	if err != nil {
		t.Fatal(err)
	}
	conv, _ := a.conversation(dec.ConversationID)
	if !whole.Complete || whole.Answer == "" || whole.Answer != strings.Join(conv.Mapping[conv.CurrentNode].Message.Content.Parts, "") {
		t.Fatalf("response and socket items decode to %q (complete %v)", whole.Answer, whole.Complete)
	}

	// Subscribing again from an offset replays the items from it on.
	mid := items[len(items)/2]
	cmd, _ = json.Marshal([]any{map[string]any{"id": 3, "command": map[string]any{"type": "subscribe", "topic_id": topic, "offset": mid.Offset}}})
	if err := c.Write(ctx, websocket.MessageText, cmd); err != nil {
		t.Fatal(err)
	}
	reply := readSocket(ctx, t, c)
	if len(reply) != 1 || reply[0].ID != 3 || len(reply[0].Reply.Catchups) != len(items)-len(items)/2 || reply[0].Reply.Catchups[0].Offset != mid.Offset {
		t.Fatalf("resubscribing from %s: %+v", mid.Offset, reply)
	}
}
