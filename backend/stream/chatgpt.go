package stream

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ChatGPTDecoder decodes ChatGPT's conversation stream with delta encoding
// v1 (and the older full-message frames). Each channel "c" holds one message
// document that the delta frames patch; the answer is the last assistant text
// message outside the commentary and analysis channels.
type ChatGPTDecoder struct {
	sse sseParser

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

// NewChatGPT returns a decoder for ChatGPT's /backend-api/f/conversation stream.
func NewChatGPT() *ChatGPTDecoder {
	d := &ChatGPTDecoder{docs: map[int]any{}}
	d.sse.deliver = d.frame
	return d
}

// Write implements Decoder.
func (d *ChatGPTDecoder) Write(p []byte) (int, error) {
	d.sse.write(p)
	return len(p), nil
}

// Close implements Decoder.
func (d *ChatGPTDecoder) Close() error {
	d.sse.close()
	d.ended = true
	return nil
}

func (d *ChatGPTDecoder) frame(event string, data []byte) {
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
		if id := str(f["conversation_id"]); id != "" {
			d.convID = id
		}
		d.object(event, f)
	default:
		d.bad++
	}
}

func (d *ChatGPTDecoder) object(event string, f map[string]any) {
	_, hasV := f["v"]
	_, hasP := f["p"]
	_, hasO := f["o"]
	typ, _ := f["type"].(string)
	switch {
	case hasV || hasP || hasO:
		d.delta(f)
	case typ != "":
		d.typed(typ, f)
	case f["error_code"] != nil || str(f["error"]) != "":
		d.fail(str(f["error_code"]), str(f["error"]))
	case f["message"] != nil:
		d.snapshot(f)
	default:
		if event != "" && event != "delta" {
			return // other named events carry nothing for the turn
		}
		d.bad++
	}
}

func (d *ChatGPTDecoder) typed(typ string, f map[string]any) {
	switch typ {
	case "message_stream_complete":
		d.complete = true
	case "title_generation":
		d.title = str(f["title"])
	case "stream_handoff":
		d.handoff = true
	case "error":
		code := str(f["code"])
		if code == "" {
			code = str(f["error_code"])
		}
		msg := str(f["message"])
		if msg == "" {
			msg = str(f["error"])
		}
		d.fail(code, msg)
	case "conversation_detail_metadata":
		d.limits = d.limits[:0]
		items, _ := get(f, "limits_progress").([]any)
		if items == nil {
			items, _ = get(f, "metadata", "limits_progress").([]any)
		}
		for _, it := range items {
			rem, _ := get(it, "remaining").(float64)
			d.limits = append(d.limits, Limit{
				Feature: str(get(it, "feature_name")), Remaining: rem, ResetAfter: str(get(it, "reset_after")),
			})
		}
	}
	// server_ste_metadata carries internal model names (i-mini): never model
	// proof. resume tokens, markers and input echoes carry nothing we need.
}

// snapshot handles the older encoding, where every frame is the whole
// message so far: it replaces the document of the channel holding that
// message id.
func (d *ChatGPTDecoder) snapshot(f map[string]any) {
	id := str(get(f, "message", "id"))
	idx := len(d.order)
	for _, c := range d.order {
		if id != "" && str(get(d.docs[c], "message", "id")) == id {
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

func (d *ChatGPTDecoder) setDoc(c int, doc any) {
	if _, ok := d.docs[c]; !ok {
		d.order = append(d.order, c)
	}
	d.docs[c] = doc
	d.checkDocError(c)
}

func (d *ChatGPTDecoder) delta(f map[string]any) {
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

func (d *ChatGPTDecoder) apply(p, o string, v any) {
	var kind opKind
	switch o {
	case "add", "replace":
		kind = opSet
	case "append":
		kind = opAppend
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
	root, ok := applyOp(d.docs[d.cur], splitPath(p), kind, v)
	if !ok {
		d.bad++
		return
	}
	d.setDoc(d.cur, root)
}

// checkDocError turns a message document whose "error" is set into the
// stream's error (the first one wins).
func (d *ChatGPTDecoder) checkDocError(c int) {
	doc := d.docs[c]
	if e := str(get(doc, "error")); e != "" || get(doc, "error_code") != nil {
		d.fail(str(get(doc, "error_code")), e)
	}
}

func (d *ChatGPTDecoder) fail(code, msg string) {
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
		d.err.WithEvidence("site_message", clip(msg, 300))
	}
}

// Messages returns every message of the stream in channel order, with
// copies of their metadata.
func (d *ChatGPTDecoder) Messages() []Message {
	out := d.views()
	for i := range out {
		if md, ok := plain(get(d.docs[out[i].Index], "message", "metadata")).(map[string]any); ok {
			out[i].Metadata = md
		}
	}
	return out
}

// views lists the messages without text or metadata (cheap enough to run
// after every chunk).
func (d *ChatGPTDecoder) views() []Message {
	order := append([]int(nil), d.order...)
	sort.Ints(order)
	out := make([]Message, 0, len(order))
	for _, c := range order {
		m := get(d.docs[c], "message")
		if _, ok := m.(map[string]any); !ok {
			continue
		}
		out = append(out, Message{
			Index:       c,
			ID:          scalar(get(m, "id")),
			Role:        str(get(m, "author", "role")),
			Name:        str(get(m, "author", "name")),
			ContentType: str(get(m, "content", "content_type")),
			Channel:     str(get(m, "channel")),
			Recipient:   str(get(m, "recipient")),
			Status:      str(get(m, "status")),
			EndTurn:     truthy(get(m, "end_turn")),
			Text:        contentText(get(m, "content")),
		})
	}
	return out
}

// contentText renders the text of a message's content by its type.
func contentText(content any) string {
	switch str(get(content, "content_type")) {
	case "text", "multimodal_text":
		parts, _ := get(content, "parts").([]any)
		var ss []string
		for _, p := range parts {
			switch p.(type) {
			case string, *textBuf:
				ss = append(ss, str(p))
			}
		}
		return strings.Join(ss, "\n")
	case "reasoning_recap":
		return str(get(content, "content"))
	case "thoughts":
		items, _ := get(content, "thoughts").([]any)
		var ss []string
		for _, it := range items {
			ss = append(ss, str(get(it, "content")))
		}
		return strings.Join(ss, "\n\n")
	}
	return str(get(content, "text"))
}

// answer picks the answer among the messages: the last assistant text
// message addressed to everyone, outside the commentary and analysis channels.
func (d *ChatGPTDecoder) answer(msgs []Message) (Message, any, bool) {
	hidden := func(m Message) any {
		return get(d.docs[m.Index], "message", "metadata", "is_visually_hidden_from_conversation")
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
		if truthy(hidden(m)) {
			continue
		}
		return m, get(d.docs[m.Index], "message", "metadata"), true
	}
	return Message{}, nil, false
}

// Limits returns the usage limits the stream reported, if any.
func (d *ChatGPTDecoder) Limits() []Limit { return append([]Limit(nil), d.limits...) }

// Encoding returns the delta encoding the stream announced ("v1"), or "".
func (d *ChatGPTDecoder) Encoding() string { return d.encoding }

// Result implements Decoder.
func (d *ChatGPTDecoder) Result() Result {
	r := Result{
		Complete: d.complete, Ended: d.ended, ConversationID: d.convID, Title: d.title,
		Handoff: d.handoff, Err: d.err, Malformed: d.bad,
	}
	if a, md, ok := d.answer(d.views()); ok {
		r.Text = stripCitations(a.Text)
		r.MessageID = a.ID
		if s := str(get(md, "resolved_model_slug")); s != "" {
			r.Model, r.ModelSource = s, "metadata.resolved_model_slug"
		} else if s := str(get(md, "model_slug")); s != "" {
			r.Model, r.ModelSource = s, "metadata.model_slug"
		}
		r.FinishReason = str(get(md, "finish_details", "type"))
		if r.FinishReason == "" && a.Status != "" && a.Status != "in_progress" {
			r.FinishReason = a.Status
		}
	}
	return r
}

var _ Decoder = (*ChatGPTDecoder)(nil)
