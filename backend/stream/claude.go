package stream

import (
	"encoding/json"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ClaudeDecoder decodes claude.ai's completion stream: Messages-style SSE
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop, error), and the older {"type":"completion"} frames. Only
// text deltas are answer text; thinking and tool blocks are not.
type ClaudeDecoder struct {
	sse sseParser

	blocks    map[int]*claudeBlock
	legacy    strings.Builder
	useLegacy bool

	complete, ended bool
	finish          string
	model, modelSrc string
	msgID           string
	err             *errs.Envelope
	bad             int
}

type claudeBlock struct {
	kind string // "text", "thinking", "tool_use", … ("" when never started)
	text strings.Builder
}

// NewClaude returns a decoder for Claude's completion stream.
func NewClaude() *ClaudeDecoder {
	d := &ClaudeDecoder{blocks: map[int]*claudeBlock{}}
	d.sse.deliver = d.frame
	return d
}

// Write implements Decoder.
func (d *ClaudeDecoder) Write(p []byte) (int, error) {
	d.sse.write(p)
	return len(p), nil
}

// Close implements Decoder.
func (d *ClaudeDecoder) Close() error {
	d.sse.close()
	d.ended = true
	return nil
}

func (d *ClaudeDecoder) block(f map[string]any) *claudeBlock {
	i := 0
	if x, ok := f["index"].(float64); ok && x >= 0 && x < 1<<20 {
		i = int(x)
	}
	b := d.blocks[i]
	if b == nil {
		b = &claudeBlock{}
		d.blocks[i] = b
	}
	return b
}

func (d *ClaudeDecoder) frame(event string, data []byte) {
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		d.bad++
		return
	}
	typ := str(f["type"])
	if typ == "" {
		typ = event
	}
	switch typ {
	case "message_start":
		if m := str(get(f, "message", "model")); m != "" {
			d.model, d.modelSrc = m, "message_start.message.model"
		}
		if id := str(get(f, "message", "uuid")); id != "" {
			d.msgID = id
		} else if id := str(get(f, "message", "id")); id != "" {
			d.msgID = id
		}
	case "content_block_start":
		b := d.block(f)
		b.kind = str(get(f, "content_block", "type"))
		b.text.WriteString(str(get(f, "content_block", "text")))
	case "content_block_delta":
		dt := str(get(f, "delta", "type"))
		if dt == "" || dt == "text_delta" {
			d.block(f).text.WriteString(str(get(f, "delta", "text")))
		}
	case "message_delta":
		if r := str(get(f, "delta", "stop_reason")); r != "" {
			d.finish = r
		}
	case "message_stop":
		d.complete = true
		if d.finish == "" {
			d.finish = "message_stop"
		}
	case "completion":
		d.useLegacy = true
		d.legacy.WriteString(str(f["completion"]))
		if m := str(f["model"]); m != "" {
			d.model, d.modelSrc = m, "completion.model"
		}
		if id := str(f["log_id"]); id != "" && d.msgID == "" {
			d.msgID = id
		}
		if r := str(f["stop_reason"]); r != "" {
			d.finish = r
			d.complete = true
		}
	case "message_limit":
		if str(get(f, "message_limit", "type")) == "exceeded_limit" && d.err == nil {
			d.err = errs.New(errs.UsageCap, "Claude says the usage limit is reached")
			if at := scalar(get(f, "message_limit", "resetsAt")); at != "" {
				d.err.WithEvidence("resets_at", at)
			}
		}
	case "error":
		d.fail(f["error"])
	case "ping", "content_block_stop":
	default:
		d.bad++
	}
}

// fail records an error event by its error type.
func (d *ClaudeDecoder) fail(e any) {
	if d.err != nil {
		return
	}
	typ := str(get(e, "type"))
	switch typ {
	case "rate_limit_error":
		d.err = errs.New(errs.RateLimited, "Claude says requests are rate limited")
	case "authentication_error":
		d.err = errs.New(errs.LoginRequired, "Claude says the session is not authenticated")
	case "permission_error":
		d.err = errs.New(errs.AccountBlocked, "Claude refused the request for this account")
	default:
		d.err = errs.New(errs.GenerationError, "Claude reported an error in the answer stream")
	}
	if typ != "" {
		d.err.WithEvidence("error_type", typ)
	}
	if m := str(get(e, "message")); m != "" {
		d.err.WithEvidence("site_message", clip(m, 300))
	}
}

// Result implements Decoder.
func (d *ClaudeDecoder) Result() Result {
	r := Result{
		Complete: d.complete, Ended: d.ended, FinishReason: d.finish,
		MessageID: d.msgID, Err: d.err, Malformed: d.bad,
	}
	r.Model, r.ModelSource = d.model, d.modelSrc
	if d.useLegacy {
		r.Text = d.legacy.String()
		return r
	}
	idx := make([]int, 0, len(d.blocks))
	for i := range d.blocks {
		idx = append(idx, i)
	}
	sort.Ints(idx)
	var b strings.Builder
	for _, i := range idx {
		if k := d.blocks[i].kind; k == "" || k == "text" {
			b.WriteString(d.blocks[i].text.String())
		}
	}
	r.Text = b.String()
	return r
}

var _ Decoder = (*ClaudeDecoder)(nil)
