package chatgptsim

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"

	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// celsius stands in for ChatGPT's user WebSocket (providers.md, the stream
// that moves to a WebSocket): GET /backend-api/celsius/ws/user names the
// socket's address (wss://…/p3/ws/user/<id>?verify=<ts>-<hmac>); the page
// keeps one socket, sends [{"id":1,"command":{"type":"connect",…}},
// {"id":2,"command":{"type":"subscribe","topic_id":…,"offset":"0"}}], and
// gets a reply per command (a subscription's with the topic's items from
// that offset on as "catchups") and then each new message of its topics,
// several queued ones in one JSON array. A long turn's stream items go to
// the topic conversation-turn-<turn id>; the conversations topic carries
// title news. A topic may drop its subscribers once after some items
// (stream_handoff param drop): the page reconnects and subscribes again
// from its last offset, and the items from that offset come again.
type celsius struct {
	secret []byte

	mu     sync.Mutex
	topics map[string]*topic
	conns  map[*socket]bool
	seq    int64
}

type topic struct {
	items  []item // the messages, in order
	subs   map[*socket]bool
	dropAt int // drop the subscribers once after this many items (0: never)
}

type item struct {
	offset string
	msg    sim.Obj
}

// socket is one page's connection: its messages wait in queue until its
// writer sends them.
type socket struct {
	c      *websocket.Conn
	mu     sync.Mutex
	queue  []sim.Obj
	wake   chan struct{}
	cancel context.CancelFunc
}

func newCelsius() *celsius {
	secret := make([]byte, 32)
	_, _ = rand.Read(secret)
	return &celsius{secret: secret, topics: map[string]*topic{}, conns: map[*socket]bool{}}
}

const celsiusUser = "user-sim"

func (c *celsius) sign(ts string) string {
	m := hmac.New(sha256.New, c.secret)
	m.Write([]byte(celsiusUser + "|" + ts))
	return hex.EncodeToString(m.Sum(nil))[:32]
}

// address answers GET /backend-api/celsius/ws/user (behind the bearer).
func (c *celsius) address(w http.ResponseWriter, r *http.Request) {
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sim.WriteJSON(w, http.StatusOK, sim.O("websocket_url", "wss://"+r.Host+"/p3/ws/user/"+celsiusUser+"?verify="+ts+"-"+c.sign(ts)))
}

// serve is the socket itself: a verify older than five minutes, or not
// this server's, is refused before the upgrade.
func (c *celsius) serve(w http.ResponseWriter, r *http.Request) {
	ts, sig, _ := strings.Cut(r.URL.Query().Get("verify"), "-")
	n, err := strconv.ParseInt(ts, 10, 64)
	if err != nil || r.PathValue("user") != celsiusUser || !hmac.Equal([]byte(sig), []byte(c.sign(ts))) || time.Since(time.Unix(n, 0)) > 5*time.Minute {
		http.Error(w, "invalid verify", http.StatusUnauthorized)
		return
	}
	conn, err := websocket.Accept(w, r, nil)
	if err != nil {
		return
	}
	conn.SetReadLimit(1 << 20)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	s := &socket{c: conn, wake: make(chan struct{}, 1), cancel: cancel}
	c.mu.Lock()
	c.conns[s] = true
	c.mu.Unlock()
	defer c.forget(s)
	go s.write(ctx)
	for {
		_, b, err := conn.Read(ctx)
		if err != nil {
			return
		}
		var cmds []struct {
			ID      int `json:"id"`
			Command struct {
				Type    string `json:"type"`
				TopicID string `json:"topic_id"`
				Offset  string `json:"offset"`
			} `json:"command"`
		}
		if json.Unmarshal(b, &cmds) != nil {
			_ = conn.Close(websocket.StatusUnsupportedData, "commands are a JSON array")
			return
		}
		for _, cmd := range cmds {
			reply := sim.O("type", cmd.Command.Type)
			switch cmd.Command.Type {
			case "subscribe":
				reply = append(reply, c.subscribe(s, cmd.Command.TopicID, cmd.Command.Offset)...)
			case "unsubscribe":
				c.mu.Lock()
				if t := c.topics[cmd.Command.TopicID]; t != nil {
					delete(t.subs, s)
				}
				c.mu.Unlock()
			}
			s.send(sim.O("id", cmd.ID, "type", "reply", "reply", reply))
		}
	}
}

// subscribe adds s to the topic and returns the reply's fields: the items
// from offset on (all for "0"), the topic's last offset.
func (c *celsius) subscribe(s *socket, name, offset string) sim.Obj {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := c.topic(name)
	t.subs[s] = true
	catchups, last := []any{}, "0"
	for _, it := range t.items {
		if offset == "0" || offsetAtLeast(it.offset, offset) {
			catchups = append(catchups, it.msg)
		}
		last = it.offset
	}
	return sim.O("topic_id", name, "last_offset", last, "recovered", true, "catchups", catchups)
}

// offsetAtLeast compares offsets of the form <ms>-<seq>.
func offsetAtLeast(o, from string) bool {
	om, os, _ := strings.Cut(o, "-")
	fm, fs, _ := strings.Cut(from, "-")
	a, _ := strconv.ParseInt(om, 10, 64)
	b, _ := strconv.ParseInt(fm, 10, 64)
	if a != b {
		return a > b
	}
	x, _ := strconv.ParseInt(os, 10, 64)
	y, _ := strconv.ParseInt(fs, 10, 64)
	return x >= y
}

func (c *celsius) topic(name string) *topic {
	t := c.topics[name]
	if t == nil {
		t = &topic{subs: map[*socket]bool{}}
		c.topics[name] = t
	}
	return t
}

// publish appends a message with payload to the topic and sends it to its
// subscribers; a topic set to drop closes them after its dropAt-th item.
func (c *celsius) publish(name string, payload sim.Obj) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.seq++
	t := c.topic(name)
	offset := fmt.Sprintf("%d-%d", time.Now().UnixMilli(), c.seq)
	msg := sim.O("type", "message", "topic_id", name, "offset", offset, "payload", payload)
	t.items = append(t.items, item{offset, msg})
	for s := range t.subs {
		s.send(msg)
	}
	if t.dropAt > 0 && len(t.items) >= t.dropAt && len(t.subs) > 0 {
		t.dropAt = 0
		for s := range t.subs {
			delete(t.subs, s)
			s.cancel()
		}
	}
}

// turnTopic opens the topic of a handed-off turn, dropping its subscribers
// once (the first item from the drop-th on that has one) when drop > 0.
func (c *celsius) turnTopic(name string, drop int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.topic(name).dropAt = drop
}

func (c *celsius) forget(s *socket) {
	s.cancel()
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.conns, s)
	for _, t := range c.topics {
		delete(t.subs, s)
	}
}

// reset forgets the topics and ends the sockets (the pages reconnect).
func (c *celsius) reset() {
	c.closeAll()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.topics = map[string]*topic{}
}

// closeAll ends every socket (the server closing or resetting).
func (c *celsius) closeAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for s := range c.conns {
		s.cancel()
	}
}

func (s *socket) send(m sim.Obj) {
	s.mu.Lock()
	s.queue = append(s.queue, m)
	s.mu.Unlock()
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// write sends what is queued: one message alone, several as one array.
func (s *socket) write(ctx context.Context) {
	defer s.c.CloseNow()
	for {
		select {
		case <-ctx.Done():
			return
		case <-s.wake:
		}
		s.mu.Lock()
		q := s.queue
		s.queue = nil
		s.mu.Unlock()
		var v any = q
		switch len(q) {
		case 0:
			continue
		case 1:
			v = q[0]
		}
		if s.c.Write(ctx, websocket.MessageText, []byte(sim.CompactJSON(v))) != nil {
			s.cancel()
			return
		}
	}
}
