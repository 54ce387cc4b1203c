package deepseek

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "deepseek-sse"

// Decoder decodes chat.deepseek.com's /api/v0/chat/completion
// stream: a ready event naming the model, then patches (SET, APPEND, BATCH)
// to a document whose response.fragments hold THINK and RESPONSE parts.
// Only RESPONSE fragments are the answer. A bare {"v":…} continues the
// previous path; a bare string whose inherited path is the fragments array
// continues the last fragment's content. Error frames carry only a
// sentence, which maps to RateLimited, UsageCap or GenerationError.
type Decoder struct {
	sse  stream.SSE
	root any

	lastP, lastO string
	haveLast     bool

	model, sessionID, respID string
	title                    string
	ended                    bool
	err                      *errs.Envelope
	bad                      int

	frames int    // SSE frames delivered
	head   []byte // the body's first bytes, for a refusal sent as plain JSON
}

// ClientOutdated is the evidence "reason" of a send DeepSeek refused
// because the tab holds an outdated build of its web client
// (CLIENT_VERSION_TOO_LOW, code 40005): reloading the tab fixes it, and
// nothing was sent.
const ClientOutdated = provider.ReasonClientOutdated

// NewDecoder returns a decoder for DeepSeek's completion stream.
func NewDecoder() *Decoder {
	d := &Decoder{}
	d.sse.Deliver = d.frame
	return d
}

// Write implements Decoder.
func (d *Decoder) Write(p []byte) (int, error) {
	if room := 1024 - len(d.head); room > 0 {
		d.head = append(d.head, p[:min(room, len(p))]...)
	}
	d.sse.Write(p)
	return len(p), nil
}

// Close implements Decoder. A body that held no SSE frame may be the API's
// plain JSON refusal ({"code":40005,"msg":"CLIENT_VERSION_TOO_LOW",…}).
func (d *Decoder) Close() error {
	d.sse.Close()
	d.ended = true
	if d.frames == 0 && d.err == nil {
		d.err = apiRefusal(d.head)
	}
	return nil
}

// apiRefusal reads the API's JSON answer {"code":N,"msg":"…","data":…}
// with a non-zero code, or nil.
func apiRefusal(body []byte) *errs.Envelope {
	var f struct {
		Code *float64 `json:"code"`
		Msg  string   `json:"msg"`
	}
	if json.Unmarshal([]byte(strings.TrimPrefix(strings.TrimSpace(string(body)), "\ufeff")), &f) != nil || f.Code == nil || *f.Code == 0 {
		return nil
	}
	code := strconv.Itoa(int(*f.Code))
	var e *errs.Envelope
	switch {
	case code == "40005" || strings.Contains(f.Msg, "CLIENT_VERSION_TOO_LOW"):
		e = errs.New(errs.GenerationError, "DeepSeek refused the prompt: the tab holds an outdated build of its web client (CLIENT_VERSION_TOO_LOW); nothing was sent").
			WithEvidence("reason", ClientOutdated).
			WithHint("reload the DeepSeek tab, then run the prompt again")
	case code == "40003":
		e = errs.New(errs.LoginRequired, "DeepSeek refused the prompt: %s", stream.Clip(f.Msg, 200))
	default:
		e = errs.New(errs.GenerationError, "DeepSeek refused the prompt with code %s: %s", code, stream.Clip(f.Msg, 200))
	}
	return e.WithEvidence("error_code", code)
}

func (d *Decoder) frame(event string, data []byte) {
	d.frames++
	if string(data) == "[DONE]" {
		d.ended = true
		return
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		d.bad++
		return
	}
	switch event {
	case "ready":
		d.model = stream.Str(f["model_type"])
		d.respID = stream.Scalar(f["response_message_id"])
		d.sessionID = stream.Str(f["chat_session_id"])
		return
	case "title":
		d.title = stream.Str(f["content"])
		return
	case "close":
		d.ended = true
		return
	case "update_session":
		return
	}
	if stream.Str(f["type"]) == "error" {
		if d.err == nil {
			c := stream.Scalar(f["content"])
			d.err = deepSeekError(c)
			if c != "" {
				d.err.WithEvidence("site_message", stream.Clip(c, 300))
			}
		}
		return
	}
	_, hasV := f["v"]
	p, hasP := f["p"].(string)
	o, hasO := f["o"].(string)
	if !hasV && !hasP && !hasO {
		d.bad++
		return
	}
	switch {
	case !hasP:
		// A bare {"v":…} continues the previous path and operation.
		if d.haveLast {
			p = d.lastP
			if !hasO {
				o = d.lastO
			}
		} else if !hasO {
			o = "SET"
		}
	case !hasO:
		o = "SET"
		if d.haveLast && p == d.lastP {
			o = d.lastO
		}
	}
	d.lastP, d.lastO, d.haveLast = p, o, true
	if !hasP {
		if s, ok := f["v"].(string); ok {
			if tp, ok := d.textPath(p); ok {
				// Appending a string to an array means nothing: the site
				// continues the text of the fragment it just added. The
				// inherited path stays the array, for a later fragment list.
				d.apply(tp, "APPEND", s)
				return
			}
		}
	}
	d.apply(p, o, f["v"])
}

// textPath returns the content path of the last element of the array at p
// (response/fragments → response/fragments/-1/content), when p names a
// non-empty array of fragments.
func (d *Decoder) textPath(p string) (string, bool) {
	n := d.root
	for _, seg := range stream.SplitPath(p) {
		m, ok := n.(map[string]any)
		if !ok {
			return "", false
		}
		n = m[seg]
	}
	arr, ok := n.([]any)
	if !ok || len(arr) == 0 {
		return "", false
	}
	if _, ok := arr[len(arr)-1].(map[string]any); !ok {
		return "", false
	}
	return strings.TrimSuffix(p, "/") + "/-1/content", true
}

// DeepSeek's error frames carry only a sentence, no code: its wording is
// all there is to tell a rate limit and a usage cap from a failed turn.
var (
	reDeepSeekRate = regexp.MustCompile(`(?i)too (?:frequent|many requests|fast)|sending messages too|rate limit`)
	reDeepSeekCap  = regexp.MustCompile(`(?i)usage limit|daily limit|quota`)
)

// deepSeekError is the envelope for the text of an error frame.
func deepSeekError(text string) *errs.Envelope {
	switch {
	case reDeepSeekRate.MatchString(text):
		return errs.New(errs.RateLimited, "DeepSeek says messages are sent too frequently")
	case reDeepSeekCap.MatchString(text):
		return errs.New(errs.UsageCap, "DeepSeek says the usage limit is reached")
	}
	return errs.New(errs.GenerationError, "DeepSeek reported an error in the answer stream")
}

func (d *Decoder) apply(p, o string, v any) {
	var kind stream.Op
	switch strings.ToUpper(o) {
	case "SET":
		kind = stream.OpSet
	case "APPEND":
		kind = stream.OpAppend
	case "BATCH":
		items, ok := v.([]any)
		if !ok {
			d.bad++
			return
		}
		for _, it := range items {
			ip := stream.Str(stream.Get(it, "p"))
			io := stream.Str(stream.Get(it, "o"))
			if io == "" {
				io = "SET"
			}
			full := ip
			if p != "" {
				full = strings.TrimSuffix(p, "/") + "/" + ip
			}
			d.apply(full, io, stream.Get(it, "v"))
		}
		return
	default:
		d.bad++
		return
	}
	root, ok := stream.ApplyOp(d.root, stream.SplitPath(p), kind, v)
	if !ok {
		d.bad++
		return
	}
	d.root = root
}

// Thinking returns the THINK fragments so far. It is shown to nobody as the
// answer; it exists for diagnostics.
func (d *Decoder) Thinking() string {
	return d.fragments("THINK", "thinking_content")
}

func (d *Decoder) fragments(kind, legacy string) string {
	resp := stream.Get(d.root, "response")
	frags, ok := stream.Get(resp, "fragments").([]any)
	if !ok {
		// The 2025 format kept the answer in response.content and the
		// reasoning in response.thinking_content.
		return stream.Str(stream.Get(resp, legacy))
	}
	var b strings.Builder
	for _, fr := range frags {
		if stream.Str(stream.Get(fr, "type")) == kind {
			b.WriteString(stream.Str(stream.Get(fr, "content")))
		}
	}
	return b.String()
}

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	resp := stream.Get(d.root, "response")
	status := stream.Str(stream.Get(resp, "status"))
	r := stream.Result{
		Text:           d.fragments("RESPONSE", "content"),
		Complete:       status == "FINISHED",
		Ended:          d.ended,
		ConversationID: d.sessionID,
		MessageID:      d.respID,
		Title:          d.title,
		Err:            d.err,
		Malformed:      d.bad,
	}
	if status != "" && status != "WIP" {
		r.FinishReason = status
	}
	if id := stream.Scalar(stream.Get(resp, "message_id")); id != "" {
		r.MessageID = id
	}
	if d.model != "" {
		r.Model, r.ModelSource = d.model, "ready.model_type"
	}
	return r
}

var _ stream.Decoder = (*Decoder)(nil)
