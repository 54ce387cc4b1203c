package claude

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "claude-sse"

// Decoder decodes claude.ai's completion stream: Messages-style stream.SSE
// (message_start, content_block_start/delta/stop, message_delta,
// message_stop, error), and the older {"type":"completion"} frames. Only
// text deltas are answer text; thinking and tool blocks are not.
type Decoder struct {
	sse stream.SSE

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

// NewDecoder returns a decoder for Claude's completion stream.
func NewDecoder() *Decoder {
	d := &Decoder{blocks: map[int]*claudeBlock{}}
	d.sse.Deliver = d.frame
	return d
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

func (d *Decoder) block(f map[string]any) *claudeBlock {
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

func (d *Decoder) frame(event string, data []byte) {
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		d.bad++
		return
	}
	typ := stream.Str(f["type"])
	if typ == "" {
		typ = event
	}
	switch typ {
	case "message_start":
		if m := stream.Str(stream.Get(f, "message", "model")); m != "" {
			d.model, d.modelSrc = m, "message_start.message.model"
		}
		if id := stream.Str(stream.Get(f, "message", "uuid")); id != "" {
			d.msgID = id
		} else if id := stream.Str(stream.Get(f, "message", "id")); id != "" {
			d.msgID = id
		}
	case "content_block_start":
		b := d.block(f)
		b.kind = stream.Str(stream.Get(f, "content_block", "type"))
		b.text.WriteString(stream.Str(stream.Get(f, "content_block", "text")))
	case "content_block_delta":
		dt := stream.Str(stream.Get(f, "delta", "type"))
		if dt == "" || dt == "text_delta" {
			d.block(f).text.WriteString(stream.Str(stream.Get(f, "delta", "text")))
		}
	case "message_delta":
		if r := stream.Str(stream.Get(f, "delta", "stop_reason")); r != "" {
			d.finish = r
		}
	case "message_stop":
		d.complete = true
		if d.finish == "" {
			d.finish = "message_stop"
		}
	case "completion":
		d.useLegacy = true
		d.legacy.WriteString(stream.Str(f["completion"]))
		if m := stream.Str(f["model"]); m != "" {
			d.model, d.modelSrc = m, "completion.model"
		}
		if id := stream.Str(f["log_id"]); id != "" && d.msgID == "" {
			d.msgID = id
		}
		if r := stream.Str(f["stop_reason"]); r != "" {
			d.finish = r
			d.complete = true
		}
	case "message_limit":
		if stream.Str(stream.Get(f, "message_limit", "type")) == "exceeded_limit" && d.err == nil {
			d.err = capErr(stream.Get(f, "message_limit", "resetsAt"))
		}
	case "error":
		d.fail(f["error"])
	case "ping", "content_block_stop":
	default:
		d.bad++
	}
}

// fail records an error event by its error type.
func (d *Decoder) fail(e any) {
	if d.err != nil {
		return
	}
	typ := stream.Str(stream.Get(e, "type"))
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
	if m := stream.Str(stream.Get(e, "message")); m != "" {
		d.err.WithEvidence("site_message", stream.Clip(m, 300))
	}
}

// Refusal implements stream.RefusalReader: a refused completion answers
// {"type":"error","error":{"type":"rate_limit_error","message":"…"}}, and
// when the account is at its usage cap the message is itself JSON,
// {"type":"exceeded_limit","resetsAt":<unix s>,…}: a usage cap with its
// reset time, never a short rate limit. Other error bodies read as the
// stream's error events do; a body that is not Claude's error is nil.
func (d *Decoder) Refusal(status int, body []byte) *errs.Envelope {
	var f map[string]any
	if json.Unmarshal(body, &f) != nil || f["error"] == nil {
		return nil
	}
	var limit map[string]any
	if msg := stream.Str(stream.Get(f, "error", "message")); json.Unmarshal([]byte(msg), &limit) == nil && stream.Str(limit["type"]) == "exceeded_limit" {
		return capErr(limit["resetsAt"]).WithEvidence("status", strconv.Itoa(status))
	}
	probe := &Decoder{}
	probe.fail(f["error"])
	return probe.err.WithEvidence("status", strconv.Itoa(status))
}

// capErr is the usage cap envelope, with the reset time when resetsAt
// (unix seconds) is given.
func capErr(resetsAt any) *errs.Envelope {
	var at time.Time
	if secs, err := strconv.ParseFloat(stream.Scalar(resetsAt), 64); err == nil && secs > 0 {
		at = time.Unix(int64(secs), 0)
	}
	return interstitial.CapErr("Claude says the account hit its usage limit for messages", at)
}

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	r := stream.Result{
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

var (
	_ stream.Decoder       = (*Decoder)(nil)
	_ stream.RefusalReader = (*Decoder)(nil)
)
