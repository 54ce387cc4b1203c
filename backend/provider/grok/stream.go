package grok

import (
	"encoding/json"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/interstitial"
	"github.com/ferrydesk/ferry/backend/stream"
)

// DecoderName is the name the decoder registers under, as a site's stream
// settings give it.
const DecoderName = "grok-ndjson"

// Decoder decodes grok.com's /rest/app-chat/conversations/… response:
// NDJSON lines of {"result":{…}} (new conversations wrap the payload as
// result.response). Tokens build the partial text; modelResponse.message is
// the full answer and replaces it; thinking tokens are never answer text.
type Decoder struct {
	lines stream.LineBuffer

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

// NewDecoder returns a decoder for Grok's NDJSON stream.
func NewDecoder() *Decoder { return &Decoder{} }

// Write implements Decoder.
func (d *Decoder) Write(p []byte) (int, error) {
	d.lines.Feed(p, d.line)
	return len(p), nil
}

// Close implements Decoder.
func (d *Decoder) Close() error {
	d.lines.Flush(d.line)
	d.ended = true
	return nil
}

func (d *Decoder) line(line []byte) {
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
		if id := stream.Str(c["conversationId"]); id != "" {
			d.convID = id
		}
		if t := stream.Str(c["title"]); t != "" {
			d.title = t
		}
	}
	if t := stream.Str(stream.Get(res, "title", "newTitle")); t != "" {
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
	if id := stream.Str(r["responseId"]); id != "" && r["userResponse"] == nil {
		d.respID = id
	}
	if tok, ok := r["token"].(string); ok && !stream.Truthy(r["isThinking"]) {
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
		if id := stream.Str(mr["responseId"]); id != "" {
			d.respID = id
		}
		if m := stream.Str(mr["model"]); m != "" {
			d.model, d.modelSrc = m, "modelResponse.model"
		}
		if e := stream.Str(mr["error"]); e != "" {
			d.fail(map[string]any{"message": e})
		}
	}
	if stream.Truthy(r["isSoftStop"]) {
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
		if m := stream.Str(r["model"]); m != "" {
			d.model, d.modelSrc = m, "response.model"
		}
	}
}

// grokCapRE matches the wording of a usage cap (as opposed to a rate limit).
var grokCapRE = regexp.MustCompile(`(?i)reached your (?:usage |message )?limit|usage limit|quota|upgrade`)

// fail records an error line. gRPC code 8 (RESOURCE_EXHAUSTED) is Grok's
// rate limit; anything else is an error for the turn.
func (d *Decoder) fail(e any) {
	if d.err != nil {
		return
	}
	code := stream.Scalar(stream.Get(e, "code"))
	msg := stream.Str(stream.Get(e, "message"))
	if msg == "" {
		msg = stream.Str(e)
	}
	switch tier := grokTierRE.FindStringSubmatch(msg); {
	case tier != nil:
		// A mode the account's plan lacks ("Requires TIER_SUPERGROK_LITE",
		// 2026-08): a capability, not a limit that passes.
		d.err = errs.New(errs.CapabilityMissing, "Grok refuses the chosen mode: it needs the %s plan, which this account lacks; nothing was sent again", tier[1]).
			WithEvidence("tier", tier[1]).
			WithHint("ask with another --model (fast, expert, auto), or use an account on the %s plan", tier[1])
	case (code == "8" || code == "429") && grokCapRE.MatchString(msg):
		// RESOURCE_EXHAUSTED covers both limits; only the words tell a
		// plan's usage cap from a short rate limit.
		d.err = interstitial.CapErr("Grok says the plan's usage limit is reached", time.Time{})
	case code == "8" || code == "429":
		d.err = errs.New(errs.RateLimited, "Grok says there are too many requests")
	case code == "7" || strings.Contains(strings.ToLower(msg), "anti-bot"):
		// PERMISSION_DENIED from the anti-bot layer (since 2026-06): the
		// page's own tokens were refused; only the user can clear it.
		d.err = errs.New(errs.CloudflareChallenge, "Grok's anti-bot check refused the prompt; nothing was sent again").
			WithHint("open the Grok tab, reload it (or solve the check it shows), then retry")
	default:
		d.err = errs.New(errs.GenerationError, "Grok reported an error in the answer stream")
	}
	if code != "" {
		d.err.WithEvidence("error_code", code)
	}
	if msg != "" {
		d.err.WithEvidence("site_message", stream.Clip(msg, 300))
	}
}

// Refusal implements stream.RefusalReader: a refused send answers a gRPC
// status as JSON, {"code":8,"message":"Too many requests","details":[]}
// (also wrapped as {"error":{…}}); code 8 is a short rate limit or, by its
// words, a usage cap. A body without a code is nil.
func (d *Decoder) Refusal(status int, body []byte) *errs.Envelope {
	var f map[string]any
	if json.Unmarshal(body, &f) != nil {
		return nil
	}
	e := any(f)
	if inner, ok := f["error"].(map[string]any); ok {
		e = inner
	}
	if stream.Scalar(stream.Get(e, "code")) == "" {
		return nil
	}
	probe := &Decoder{}
	probe.fail(e)
	return probe.err.WithEvidence("status", strconv.Itoa(status))
}

// Result implements Decoder.
func (d *Decoder) Result() stream.Result {
	r := stream.Result{
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

var (
	_ stream.Decoder       = (*Decoder)(nil)
	_ stream.RefusalReader = (*Decoder)(nil)
)

// grokTierRE finds the plan a tier-gated mode needs in Grok's refusal.
var grokTierRE = regexp.MustCompile(`Requires (TIER_[A-Z0-9_]+)`)
