package testsite

import (
	"encoding/json"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// DecoderName is the name the test site's decoder registers under.
const DecoderName = "testsite-ndjson"

// Decoder decodes the test site's answer stream: one JSON object per line,
// {"conversation":id}, {"model":name}, {"text":piece} appended to the
// answer, {"done":true} proving the end, or {"error":{"code","message"}}.
type Decoder struct {
	lines stream.LineBuffer
	res   stream.Result
}

// NewDecoder returns a decoder for one answer stream.
func NewDecoder() *Decoder { return &Decoder{} }

// Write feeds the next chunk; it always returns len(p), nil.
func (d *Decoder) Write(p []byte) (int, error) {
	d.lines.Feed(p, d.line)
	return len(p), nil
}

// Close decodes a trailing line and marks the stream ended; it returns nil.
func (d *Decoder) Close() error {
	d.lines.Flush(d.line)
	d.res.Ended = true
	return nil
}

// Result returns the state decoded so far.
func (d *Decoder) Result() stream.Result { return d.res }

func (d *Decoder) line(b []byte) {
	if len(b) == 0 {
		return
	}
	var f struct {
		Conversation string `json:"conversation"`
		Model        string `json:"model"`
		Text         string `json:"text"`
		Done         bool   `json:"done"`
		Error        *struct {
			Code    string `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if json.Unmarshal(b, &f) != nil {
		d.res.Malformed++
		return
	}
	if f.Conversation != "" {
		d.res.ConversationID = f.Conversation
	}
	if f.Model != "" {
		d.res.Model, d.res.ModelSource = f.Model, "model"
	}
	d.res.Text += f.Text
	if f.Done {
		d.res.Complete, d.res.Ended, d.res.FinishReason = true, true, "done"
	}
	if f.Error != nil {
		code := map[string]errs.Code{"rate_limited": errs.RateLimited, "usage_cap": errs.UsageCap}[f.Error.Code]
		if code == "" {
			code = errs.GenerationError
		}
		d.res.Err = errs.New(code, "the test site reported %s", stream.Clip(f.Error.Message, 200)).WithEvidence("site_code", f.Error.Code)
		d.res.Ended = true
	}
}

var _ stream.Decoder = (*Decoder)(nil)

var fixtures = []streamtest.Fixture{
	{
		Name: "an answer is its text pieces and completes on done",
		File: "basic.ndjson",
		Text: "Hello, naïve café 🚢.", Complete: true, Ended: true, Finish: "done",
		Model: "ts-default", Source: "model", Conv: "c-1",
	},
	{
		Name: "an error line becomes its envelope and the turn stays incomplete",
		File: "rate_limited.ndjson",
		Text: "Par", Ended: true, Model: "ts-default", Source: "model", Conv: "c-2", ErrCode: errs.RateLimited,
	},
}

func TestDecoderReadsCapturedStreams(t *testing.T) {
	streamtest.CheckCaptures(t, DecoderName, fixtures)
}

func TestSplittingAnywhereGivesTheSameResult(t *testing.T) {
	streamtest.CheckSplits(t, DecoderName, fixtures)
}

func TestMutatedCapturesStayStableUnderRechunking(t *testing.T) {
	streamtest.CheckMutations(t, DecoderName, fixtures)
}

func FuzzDecoder(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, streamtest.Lines) }
