package chatgpt

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/chatgpt/internal/handoff"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "chatgpt-delta-v1"

// Decoder decodes ChatGPT's conversation stream with delta encoding
// v1 (and the older full-message frames). Each channel "c" holds one message
// document that the delta frames patch; the answer is the last assistant text
// message outside the commentary and analysis channels.
type Decoder struct {
	sse stream.SSE
	// A long turn moves to the page's WebSocket (stream_handoff): follow
	// picks its items out of the socket's messages, and socket reads the
	// SSE text each carries, on the same documents as the response.
	follow handoff.Follower
	socket stream.SSE

	docs  map[int]any // channel index -> {"message":…, "conversation_id":…, "error":…}
	order []int       // channel indexes in order of first appearance
	cur   int

	lastP, lastO   string // effective path and op of the previous delta frame
	haveLast       bool
	innerP, innerO string // the last op inside the previous patch list

	encoding string
	complete bool
	ended    bool
	handoff  bool
	convID   string
	title    string
	err      *errs.Envelope
	bad      int
	limits   []Limit
}

// Limit is one entry of conversation_detail_metadata.limits_progress.
type Limit struct {
	Feature    string  `json:"feature"`
	Remaining  float64 `json:"remaining"`
	ResetAfter string  `json:"resetAfter,omitempty"`
}

// Message is one message of the stream, as the site sent it, for scanners
// that need more than the answer (sandbox paths in tool output, say).
type Message struct {
	Index       int            `json:"index"` // the stream's channel number "c"
	ID          string         `json:"id"`
	Role        string         `json:"role"`
	Name        string         `json:"name,omitempty"`
	ContentType string         `json:"contentType"`
	Channel     string         `json:"channel,omitempty"` // "final", "commentary", "analysis" or ""
	Recipient   string         `json:"recipient,omitempty"`
	Status      string         `json:"status,omitempty"`
	EndTurn     bool           `json:"endTurn,omitempty"`
	Text        string         `json:"text"`
	Metadata    map[string]any `json:"metadata,omitempty"`
}

// NewDecoder returns a decoder for ChatGPT's /backend-api/f/conversation stream.
func NewDecoder() *Decoder {
	d := &Decoder{docs: map[int]any{}}
	d.sse.Deliver = d.frame
	d.socket.Deliver = func(event string, data []byte) {
		// The socket's [DONE] ends an item's transport, not the turn:
		// message_stream_complete does.
		if string(data) != "[DONE]" {
			d.frame(event, data)
		}
	}
	return d
}

// WriteSocket implements stream.SocketReader: once the stream has handed
// the turn off, the items of its topic the page's socket received.
func (d *Decoder) WriteSocket(msg []byte) int { return d.follow.Message(msg, d.item) }

// item decodes one stream item taken from the socket: SSE text, one event
// or more.
func (d *Decoder) item(sse string) {
	d.socket.Write([]byte(strings.TrimRight(sse, "\n") + "\n\n"))
}

// Write implements Decoder.
func (d *Decoder) Write(p []byte) (int, error) {
	d.sse.Write(p)
	return len(p), nil
}

// Close implements Decoder.
func (d *Decoder) Close() error {
	d.sse.Close()
	d.ended = true
	return nil
}

func (d *Decoder) frame(event string, data []byte) {
	if string(data) == "[DONE]" {
		// [DONE] ends this transport, but proves nothing about the turn:
		// only message_stream_complete does.
		d.ended = true
		return
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		d.bad++
		return
	}
	switch f := v.(type) {
	case string:
		if event == "delta_encoding" || d.encoding == "" {
			d.encoding = f
		}
	case map[string]any:
		if id := stream.Str(f["conversation_id"]); id != "" {
			d.convID = id
		}
		d.object(event, f)
	default:
		d.bad++
	}
}

func (d *Decoder) object(event string, f map[string]any) {
	_, hasV := f["v"]
	_, hasP := f["p"]
	_, hasO := f["o"]
	typ, _ := f["type"].(string)
	switch {
	case hasV || hasP || hasO:
		d.delta(f)
	case typ != "":
		d.typed(typ, f)
	case f["error_code"] != nil || stream.Str(f["error"]) != "":
		d.fail(stream.Str(f["error_code"]), stream.Str(f["error"]))
	case f["message"] != nil:
		d.snapshot(f)
	default:
		if event != "" && event != "delta" {
			return // other named events carry nothing for the turn
		}
		d.bad++
	}
}

func (d *Decoder) typed(typ string, f map[string]any) {
	switch typ {
	case "message_stream_complete":
		d.complete = true
	case "title_generation":
		d.title = stream.Str(f["title"])
	case "stream_handoff", "subscribe_ws_topic":
		d.handoff = true
		d.follow.Announce(f, d.item)
	case "resume_conversation_token":
		d.follow.Token(f)
	case "error":
		code := stream.Str(f["code"])
		if code == "" {
			code = stream.Str(f["error_code"])
		}
		msg := stream.Str(f["message"])
		if msg == "" {
			msg = stream.Str(f["error"])
		}
		d.fail(code, msg)
	case "conversation_detail_metadata":
		d.limits = d.limits[:0]
		items, _ := stream.Get(f, "limits_progress").([]any)
		if items == nil {
			items, _ = stream.Get(f, "metadata", "limits_progress").([]any)
		}
		for _, it := range items {
			rem, _ := stream.Get(it, "remaining").(float64)
			d.limits = append(d.limits, Limit{
				Feature: stream.Str(stream.Get(it, "feature_name")), Remaining: rem, ResetAfter: stream.Str(stream.Get(it, "reset_after")),
			})
		}
	}
	// server_ste_metadata carries internal model names (i-mini): never model
	// proof. resume tokens, markers and input echoes carry nothing we need.
}

// snapshot handles the older encoding, where every frame is the whole
// message so far: it replaces the document of the channel holding that
// message id.
func (d *Decoder) snapshot(f map[string]any) {
	id := stream.Str(stream.Get(f, "message", "id"))
	idx := len(d.order)
	for _, c := range d.order {
		if id != "" && stream.Str(stream.Get(d.docs[c], "message", "id")) == id {
			idx = c
			break
		}
	}
	if idx == len(d.order) {
		for d.docs[idx] != nil {
			idx++
		}
	}
	d.setDoc(idx, f)
}

func (d *Decoder) setDoc(c int, doc any) {
	if _, ok := d.docs[c]; !ok {
		d.order = append(d.order, c)
	}
	d.docs[c] = doc
	d.checkDocError(c)
}

func (d *Decoder) delta(f map[string]any) {
	if c, ok := f["c"].(float64); ok && c >= 0 && c < 1<<20 && c == float64(int(c)) {
		d.cur = int(c)
	}
	p, hasP := f["p"].(string)
	o, hasO := f["o"].(string)
	inherited := false
	switch {
	case !hasP && !hasO:
		// The v1 rule: a frame with neither o nor p inherits both from the
		// previous frame. Dropping it loses text ("{"v":" a list"}").
		if d.haveLast {
			p, o = d.lastP, d.lastO
		} else {
			p, o = "", "add"
		}
		inherited = true
		if _, open := d.docs[d.cur]; !open && isMessageDoc(f["v"]) {
			// A whole message for a channel not seen yet can only be
			// that channel's document; appending it to the previous path
			// would bury the message.
			p, o = "", "add"
		}
	case !hasO:
		o = "add"
		if d.haveLast {
			o = d.lastO
		}
	}
	d.lastP, d.lastO, d.haveLast = p, o, true
	v := f["v"]

	if ops, ok := opList(v); ok && (o == "patch" || inherited) {
		for _, op := range ops {
			ip, _ := op["p"].(string)
			io, _ := op["o"].(string)
			if io == "" {
				io = "add"
			}
			d.apply(p+ip, io, op["v"])
			d.innerP, d.innerO = p+ip, io
		}
		return
	}
	if o == "patch" {
		if !inherited || d.innerO == "" {
			d.bad++
			return
		}
		// A bare value after a patch continues the patch's last operation.
		d.apply(d.innerP, d.innerO, v)
		return
	}
	d.apply(p, o, v)
}

func isMessageDoc(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	_, has := m["message"]
	return has
}

// opList reports whether v is a list of patch operations.
func opList(v any) ([]map[string]any, bool) {
	items, ok := v.([]any)
	if !ok || len(items) == 0 {
		return nil, false
	}
	ops := make([]map[string]any, 0, len(items))
	for _, it := range items {
		m, ok := it.(map[string]any)
		if !ok {
			return nil, false
		}
		if _, hasO := m["o"]; !hasO {
			if _, hasP := m["p"]; !hasP {
				return nil, false
			}
		}
		ops = append(ops, m)
	}
	return ops, true
}

func (d *Decoder) apply(p, o string, v any) {
	var kind stream.Op
	switch o {
	case "add", "replace":
		kind = stream.OpSet
	case "append":
		kind = stream.OpAppend
	case "patch":
		if ops, ok := opList(v); ok {
			for _, op := range ops {
				io, _ := op["o"].(string)
				if io == "" || io == "patch" {
					io = "add"
				}
				ip, _ := op["p"].(string)
				d.apply(p+ip, io, op["v"])
			}
			return
		}
		d.bad++
		return
	default:
		d.bad++
		return
	}
	root, ok := stream.ApplyOp(d.docs[d.cur], stream.SplitPath(p), kind, v)
	if !ok {
		d.bad++
		return
	}
	d.setDoc(d.cur, root)
}

// checkDocError turns a message document whose "error" is set into the
// stream's error (the first one wins).
func (d *Decoder) checkDocError(c int) {
	doc := d.docs[c]
	if e := stream.Str(stream.Get(doc, "error")); e != "" || stream.Get(doc, "error_code") != nil {
		d.fail(stream.Str(stream.Get(doc, "error_code")), e)
	}
}

func (d *Decoder) fail(code, msg string) {
	if d.err != nil {
		return
	}
	switch code {
	case "conversation_too_large":
		d.err = errs.New(errs.ConversationTooLong, "ChatGPT says the conversation reached its maximum length")
	default:
		d.err = errs.New(errs.GenerationError, "ChatGPT reported an error in the answer stream")
	}
	if code != "" {
		d.err.WithEvidence("error_code", code)
	}
	if msg != "" {
		d.err.WithEvidence("site_message", stream.Clip(msg, 300))
	}
}

// Messages returns every message of the stream in channel order, with
// copies of their metadata.
func (d *Decoder) Messages() []Message {
	out := d.views()
	for i := range out {
		if md, ok := stream.Plain(stream.Get(d.docs[out[i].Index], "message", "metadata")).(map[string]any); ok {
			out[i].Metadata = md
		}
	}
	return out
}

// views lists the messages without text or metadata (cheap enough to run
// after every chunk).
func (d *Decoder) views() []Message {
	order := append([]int(nil), d.order...)
	sort.Ints(order)
	out := make([]Message, 0, len(order))
	for _, c := range order {
		m := stream.Get(d.docs[c], "message")
		if _, ok := m.(map[string]any); !ok {
			continue
		}
		out = append(out, Message{
			Index:       c,
			ID:          stream.Scalar(stream.Get(m, "id")),
			Role:        stream.Str(stream.Get(m, "author", "role")),
			Name:        stream.Str(stream.Get(m, "author", "name")),
			ContentType: stream.Str(stream.Get(m, "content", "content_type")),
			Channel:     stream.Str(stream.Get(m, "channel")),
			Recipient:   stream.Str(stream.Get(m, "recipient")),
			Status:      stream.Str(stream.Get(m, "status")),
			EndTurn:     stream.Truthy(stream.Get(m, "end_turn")),
			Text:        contentText(stream.Get(m, "content")),
		})
	}
	return out
}

// contentText renders the text of a message's content by its type.
func contentText(content any) string {
	switch stream.Str(stream.Get(content, "content_type")) {
	case "text", "multimodal_text":
		parts, _ := stream.Get(content, "parts").([]any)
		var ss []string
		for _, p := range parts {
			if stream.IsText(p) {
				ss = append(ss, stream.Str(p))
			}
		}
		return strings.Join(ss, "\n")
	case "reasoning_recap":
		return stream.Str(stream.Get(content, "content"))
	case "thoughts":
		items, _ := stream.Get(content, "thoughts").([]any)
		var ss []string
		for _, it := range items {
			ss = append(ss, stream.Str(stream.Get(it, "content")))
		}
		return strings.Join(ss, "\n\n")
	}
	return stream.Str(stream.Get(content, "text"))
}

// answer picks the answer among the messages: the last assistant text
// message addressed to everyone, outside the commentary and analysis channels.
func (d *Decoder) answer(msgs []Message) (Message, any, bool) {
	hidden := func(m Message) any {
		return stream.Get(d.docs[m.Index], "message", "metadata", "is_visually_hidden_from_conversation")
	}
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != "assistant" || m.ContentType != "text" {
			continue
		}
		if m.Channel == "commentary" || m.Channel == "analysis" {
			continue
		}
		if m.Recipient != "" && m.Recipient != "all" {
			continue
		}
		if stream.Truthy(hidden(m)) {
			continue
		}
		return m, stream.Get(d.docs[m.Index], "message", "metadata"), true
	}
	return Message{}, nil, false
}

// Limits returns the usage limits the stream reported, if any.
func (d *Decoder) Limits() []Limit { return append([]Limit(nil), d.limits...) }

// Encoding returns the delta encoding the stream announced ("v1"), or "".
func (d *Decoder) Encoding() string { return d.encoding }

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	r := stream.Result{
		Complete: d.complete, Ended: d.ended, ConversationID: d.convID, Title: d.title,
		Handoff: d.handoff, Err: d.err, Malformed: d.bad,
	}
	if a, md, ok := d.answer(d.views()); ok {
		r.Text = linkCitations(a.Text, stream.Get(md, "content_references"))
		r.MessageID = a.ID
		asked := stream.Str(stream.Get(md, "model_slug"))
		if s := stream.Str(stream.Get(md, "resolved_model_slug")); s != "" {
			r.Model, r.ModelSource = s, "metadata.resolved_model_slug"
			if asked != "" && asked != s {
				r.Rerouted = asked
			}
		} else if asked != "" {
			r.Model, r.ModelSource = asked, "metadata.model_slug"
		}
		r.FinishReason = stream.Str(stream.Get(md, "finish_details", "type"))
		if r.FinishReason == "" && a.Status != "" && a.Status != "in_progress" {
			r.FinishReason = a.Status
		}
	}
	return r
}

var (
	_ stream.Decoder      = (*Decoder)(nil)
	_ stream.SocketReader = (*Decoder)(nil)
)
