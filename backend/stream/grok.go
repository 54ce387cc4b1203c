package stream

import (
	"encoding/json"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// GrokDecoder decodes grok.com's /rest/app-chat/conversations/… response:
// NDJSON lines of {"result":{…}} (new conversations wrap the payload as
// result.response). Tokens build the partial text; modelResponse.message is
// the full answer and replaces it; thinking tokens are never answer text.
type GrokDecoder struct {
	lines lineBuffer

	text     strings.Builder
	full     string
	haveFull bool

	complete, ended bool
	finish          string
	model           string
	modelSrc        string
	convID, respID  string
	title           string
	err             *errs.Envelope
	bad             int
}

// NewGrok returns a decoder for Grok's NDJSON stream.
func NewGrok() *GrokDecoder { return &GrokDecoder{} }

// Write implements Decoder.
func (d *GrokDecoder) Write(p []byte) (int, error) {
	d.lines.feed(p, d.line)
	return len(p), nil
}

// Close implements Decoder.
func (d *GrokDecoder) Close() error {
	d.lines.flush(d.line)
	d.ended = true
	return nil
}

func (d *GrokDecoder) line(line []byte) {
	line = trimSpace(line)
	if len(line) == 0 {
		return
	}
	var f map[string]any
	if err := json.Unmarshal(line, &f); err != nil {
		d.bad++
		return
	}
	if e, ok := f["error"]; ok && e != nil {
		d.fail(e)
		return
	}
	res, ok := f["result"].(map[string]any)
	if !ok {
		d.bad++
		return
	}
	if c, ok := res["conversation"].(map[string]any); ok {
		if id := str(c["conversationId"]); id != "" {
			d.convID = id
		}
		if t := str(c["title"]); t != "" {
			d.title = t
		}
	}
	if t := str(get(res, "title", "newTitle")); t != "" {
		d.title = t
	}
	r := res
	if inner, ok := res["response"].(map[string]any); ok {
		r = inner
	}
	// An error can also come inside the response, next to its responseId.
	if e, ok := r["error"].(map[string]any); ok {
		d.fail(e)
		return
	}
	if id := str(r["responseId"]); id != "" && r["userResponse"] == nil {
		d.respID = id
	}
	if tok, ok := r["token"].(string); ok && !truthy(r["isThinking"]) {
		d.text.WriteString(tok)
	}
	if mr, ok := r["modelResponse"].(map[string]any); ok {
		if msg, ok := mr["message"].(string); ok {
			d.full, d.haveFull = msg, true
		}
		d.complete = true
		if d.finish == "" {
			d.finish = "modelResponse"
		}
		if id := str(mr["responseId"]); id != "" {
			d.respID = id
		}
		if m := str(mr["model"]); m != "" {
			d.model, d.modelSrc = m, "modelResponse.model"
		}
		if e := str(mr["error"]); e != "" {
			d.fail(map[string]any{"message": e})
		}
	}
	if truthy(r["isSoftStop"]) {
		d.complete = true
		if d.finish == "" {
			d.finish = "isSoftStop"
		}
	}
	if r["finalMetadata"] != nil {
		d.complete = true
		if d.finish == "" {
			d.finish = "finalMetadata"
		}
	}
	if d.model == "" {
		if m := str(r["model"]); m != "" {
			d.model, d.modelSrc = m, "response.model"
		}
	}
}

// grokCapRE matches the wording of a usage cap (as opposed to a rate limit).
var grokCapRE = regexp.MustCompile(`(?i)reached your (?:usage |message )?limit|usage limit|quota|upgrade`)

// fail records an error line. gRPC code 8 (RESOURCE_EXHAUSTED) is Grok's
// rate limit; anything else is an error for the turn.
func (d *GrokDecoder) fail(e any) {
	if d.err != nil {
		return
	}
	code := scalar(get(e, "code"))
	msg := str(get(e, "message"))
	if msg == "" {
		msg = str(e)
	}
	switch {
	case (code == "8" || code == "429") && grokCapRE.MatchString(msg):
		// RESOURCE_EXHAUSTED covers both limits; only the words tell a
		// plan's usage cap from a short rate limit.
		d.err = errs.New(errs.UsageCap, "Grok says the plan's usage limit is reached")
	case code == "8" || code == "429":
		d.err = errs.New(errs.RateLimited, "Grok says there are too many requests")
	default:
		d.err = errs.New(errs.GenerationError, "Grok reported an error in the answer stream")
	}
	if code != "" {
		d.err.WithEvidence("error_code", code)
	}
	if msg != "" {
		d.err.WithEvidence("site_message", clip(msg, 300))
	}
}

// Result implements Decoder.
func (d *GrokDecoder) Result() Result {
	r := Result{
		Text: d.text.String(), Complete: d.complete, Ended: d.ended, FinishReason: d.finish,
		Model: d.model, ModelSource: d.modelSrc, ConversationID: d.convID, MessageID: d.respID,
		Title: d.title, Err: d.err, Malformed: d.bad,
	}
	if d.haveFull {
		r.Text = d.full
	}
	return r
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}

var _ Decoder = (*GrokDecoder)(nil)
