package kimi

import (
	"encoding/binary"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are Kimi captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name: "a Kimi Connect stream with a gzip frame sets and appends block text and completes on done",
		File: "kimi_basic.connect",
		Text: "Nile, Amazon, Yangtze 长江.", Complete: true, Ended: true, Finish: "MESSAGE_STATUS_COMPLETED",
		Conv: "d4k1m1c0hat0000000001", MsgID: "m-asst-1", Title: "New chat", Model: "SCENARIO_K2", Source: "message.scenario",
	},
	{
		Name: "a Kimi end-of-stream frame with resource_exhausted becomes RateLimited",
		File: "kimi_resource_exhausted.connect",
		Text: "Sorry", Ended: true, MsgID: "m-asst-2", ErrCode: errs.RateLimited,
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

func FuzzKimi(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, connectUnits) }

// connectUnits cuts a capture into its Connect frames (units for Fuzz).
func connectUnits(body []byte) [][]byte {
	var out [][]byte
	for len(body) >= 5 {
		n := int(binary.BigEndian.Uint32(body[1:5]))
		if 5+n > len(body) {
			break
		}
		out = append(out, body[:5+n])
		body = body[5+n:]
	}
	return out
}

// connect frames a JSON payload as one Connect streaming envelope.
func connect(flags byte, payload string) []byte {
	b := make([]byte, 5+len(payload))
	b[0] = flags
	binary.BigEndian.PutUint32(b[1:], uint32(len(payload)))
	copy(b[5:], payload)
	return b
}

func TestKimiTellsTheUsageCapFromARateLimit(t *testing.T) {
	cases := []struct {
		name, message string
		want          errs.Code
	}{
		{"too many requests is a rate limit", "Too many requests, please try again later", errs.RateLimited},
		{"the usage limit is the plan's cap", "You've reached the usage limit", errs.UsageCap},
		{"a quota is the plan's cap", "Daily quota exceeded", errs.UsageCap},
		{"no message at all is a rate limit", "", errs.RateLimited},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			body := `{"error":{"code":"resource_exhausted"}}`
			if c.message != "" {
				body = `{"error":{"code":"resource_exhausted","message":"` + c.message + `"}}`
			}
			r := streamtest.DecodeChunks(t, DecoderName, connect(2, body))
			if r.Err == nil || r.Err.Code != c.want {
				t.Fatalf("error %+v, want %s", r.Err, c.want)
			}
		})
	}
}

func TestKimiNamesTheScenarioWhenTheMessageNamesNoModel(t *testing.T) {
	var b []byte
	b = append(b, connect(0, `{"op":"set","mask":"message","message":{"id":"m1","role":"assistant","status":"MESSAGE_STATUS_GENERATING","scenario":"SCENARIO_K2"}}`)...)
	b = append(b, connect(0, `{"op":"set","mask":"block.text","block":{"id":"0","text":{"content":"Hi"}}}`)...)
	b = append(b, connect(0, `{"done":{}}`)...)
	r := streamtest.DecodeChunks(t, DecoderName, b)
	if r.Model != "SCENARIO_K2" || r.ModelSource != "message.scenario" || r.Text != "Hi" || !r.Complete {
		t.Fatalf("got %+v, want the scenario as the model", r)
	}
	b = append(connect(0, `{"op":"set","mask":"message","message":{"id":"m1","role":"assistant","model":"kimi-k2","scenario":"SCENARIO_K2"}}`), b...)
	if r := streamtest.DecodeChunks(t, DecoderName, b); r.Model != "kimi-k2" || r.ModelSource != "message.model" {
		t.Fatalf("got %+v, want the named model to win over the scenario", r)
	}
}

func TestKimiRefusesAnAbsurdFrameLength(t *testing.T) {
	r := streamtest.DecodeChunks(t, DecoderName, []byte{0, 0xFF, 0xFF, 0xFF, 0xFF, '{', '}'})
	if r.Malformed != 1 || r.Complete {
		t.Fatalf("got %+v", r)
	}
}
