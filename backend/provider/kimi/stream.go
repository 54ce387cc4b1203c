package kimi

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"io"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "kimi-connect"

// Connect streaming frames: [flags u8][length u32 big-endian][payload].
const (
	connectCompressed = 0x01
	connectEndStream  = 0x02
	connectHeader     = 5
	// maxConnectFrame bounds a frame so that a corrupt length cannot make
	// the decoder buffer without end.
	maxConnectFrame = 16 << 20
)

// Decoder decodes www.kimi.com's Connect RPC chat stream
// (ChatService/Chat, application/connect+json). Message frames set or append
// block text; {"done":{}} ends the turn; the end-of-stream frame (flag 0x02)
// may carry an error.
type Decoder struct {
	buf    []byte
	broken bool // a frame header was impossible: the rest cannot be framed

	role   string
	order  []string
	blocks map[string]*strings.Builder

	complete, ended bool
	model           string
	scenario        string // the message's scenario (model family), when no model is named
	convID, msgID   string
	title           string
	status          string
	err             *errs.Envelope
	bad             int
}

// NewDecoder returns a decoder for Kimi's Connect stream.
func NewDecoder() *Decoder { return &Decoder{blocks: map[string]*strings.Builder{}} }

// Write implements Decoder.
func (d *Decoder) Write(p []byte) (int, error) {
	if d.broken {
		return len(p), nil
	}
	d.buf = append(d.buf, p...)
	off := 0
	for len(d.buf)-off >= connectHeader {
		flags := d.buf[off]
		n := binary.BigEndian.Uint32(d.buf[off+1 : off+connectHeader])
		if n > maxConnectFrame {
			d.bad++
			d.broken = true
			d.buf = nil
			return len(p), nil
		}
		end := off + connectHeader + int(n)
		if len(d.buf) < end {
			break
		}
		d.frame(flags, d.buf[off+connectHeader:end])
		off = end
	}
	if off > 0 {
		d.buf = append(d.buf[:0], d.buf[off:]...)
	}
	return len(p), nil
}

// Close implements Decoder. Bytes of an unfinished frame count as malformed.
func (d *Decoder) Close() error {
	if len(d.buf) > 0 {
		d.bad++
		d.buf = nil
	}
	d.ended = true
	return nil
}

func (d *Decoder) frame(flags byte, payload []byte) {
	if flags&connectCompressed != 0 {
		zr, err := gzip.NewReader(bytes.NewReader(payload))
		if err != nil {
			d.bad++
			return
		}
		out, err := io.ReadAll(io.LimitReader(zr, maxConnectFrame))
		if err != nil {
			d.bad++
			return
		}
		payload = out
	}
	var f map[string]any
	if err := json.Unmarshal(payload, &f); err != nil {
		d.bad++
		return
	}
	if flags&connectEndStream != 0 {
		d.ended = true
		if e, ok := f["error"]; ok && e != nil {
			d.fail(e)
		}
		return
	}
	if e, ok := f["error"]; ok && e != nil {
		d.fail(e)
	}
	if c, ok := f["chat"].(map[string]any); ok {
		if id := stream.Str(c["id"]); id != "" {
			d.convID = id
		}
		if n := stream.Str(c["name"]); n != "" {
			d.title = n
		}
	}
	op := stream.Str(f["op"])
	if m, ok := f["message"].(map[string]any); ok {
		if r := stream.Str(m["role"]); r != "" {
			d.role = r
		}
		if d.role == "assistant" {
			if id := stream.Str(m["id"]); id != "" {
				d.msgID = id
			}
			if s := stream.Str(m["status"]); s != "" {
				d.status = s
			}
			if md := stream.Str(m["model"]); md != "" {
				d.model = md
			}
			if sc := stream.Str(m["scenario"]); sc != "" {
				d.scenario = sc
			}
		}
		if blocks, ok := m["blocks"].([]any); ok {
			for _, b := range blocks {
				d.block("set", b)
			}
		}
	}
	if b, ok := f["block"]; ok {
		d.block(op, b)
	}
	if _, ok := f["done"]; ok {
		d.complete = true
	}
}

// block applies a block frame; blocks of the user's message are the prompt
// echoed back and never answer text, nor are "think" blocks.
func (d *Decoder) block(op string, b any) {
	if d.role == "user" {
		return
	}
	t, ok := stream.Get(b, "text", "content").(string)
	if !ok {
		return
	}
	id := stream.Scalar(stream.Get(b, "id"))
	sb := d.blocks[id]
	if sb == nil {
		sb = &strings.Builder{}
		d.blocks[id] = sb
		d.order = append(d.order, id)
	}
	if op != "append" {
		sb.Reset()
	}
	sb.WriteString(t)
}

// fail records an error by its Connect code.
func (d *Decoder) fail(e any) {
	if d.err != nil {
		return
	}
	code := stream.Str(stream.Get(e, "code"))
	switch code {
	case "resource_exhausted":
		// One code for both limits: the wording tells the plan's usage cap
		// (wait for the reset) from a burst of requests (cool down).
		if kimiUsageLimit.MatchString(stream.Str(stream.Get(e, "message"))) {
			d.err = errs.New(errs.UsageCap, "Kimi says the usage limit is reached")
		} else {
			d.err = errs.New(errs.RateLimited, "Kimi says the request limit is reached")
		}
	case "unauthenticated":
		d.err = errs.New(errs.LoginRequired, "Kimi says the session is not logged in")
	case "permission_denied":
		d.err = errs.New(errs.AccountBlocked, "Kimi refused the request for this account")
	default:
		d.err = errs.New(errs.GenerationError, "Kimi reported an error in the answer stream")
	}
	if code != "" {
		d.err.WithEvidence("error_code", code)
	}
	if m := stream.Str(stream.Get(e, "message")); m != "" {
		d.err.WithEvidence("site_message", stream.Clip(m, 300))
	}
}

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	var b strings.Builder
	for _, id := range d.order {
		b.WriteString(d.blocks[id].String())
	}
	r := stream.Result{
		Text: b.String(), Complete: d.complete, Ended: d.ended, ConversationID: d.convID,
		MessageID: d.msgID, Title: d.title, Err: d.err, Malformed: d.bad,
	}
	if d.complete {
		r.FinishReason = "done"
		if d.status != "" {
			r.FinishReason = d.status
		}
	}
	if d.model != "" {
		r.Model, r.ModelSource = d.model, "message.model"
	} else if d.scenario != "" {
		r.Model, r.ModelSource = d.scenario, "message.scenario"
	}
	return r
}

// kimiUsageLimit is Kimi's wording of the plan's usage cap, as opposed to
// "Too many requests".
var kimiUsageLimit = regexp.MustCompile(`(?i)usage limit|quota|limit resets`)

var _ stream.Decoder = (*Decoder)(nil)
