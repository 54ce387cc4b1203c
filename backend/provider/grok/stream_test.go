package grok

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are Grok captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name:     "a Grok NDJSON answer skips thinking tokens and ends with the full modelResponse",
		File:     "grok_new_conversation.ndjson",
		Text:     "Tides are caused by the Moon’s gravity pulling on Earth’s oceans 🌊.",
		Complete: true, Ended: true, Finish: "isSoftStop", Model: "grok-4", Source: "modelResponse.model",
		Conv: "0b5f8c1e-4d2a-4e7b-9c3d-2a1b0c9d8e7f", MsgID: "r-1", Title: "Tides explained",
	},
	{
		Name: "a Grok error line with code 8 becomes RateLimited",
		File: "grok_rate_limited.ndjson",
		Text: "Partial ", Ended: true, MsgID: "r-9", ErrCode: errs.RateLimited,
	},
	{
		Name: "a Grok error inside the response with code 13 becomes GenerationError keeping the text so far",
		File: "grok_response_error.ndjson",
		Text: "Part", Ended: true, Conv: "0b5f8c1e-4d2a-4e7b-9c3d-2a1b0c9d8e7f", MsgID: "r-7", ErrCode: errs.GenerationError,
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

func FuzzGrok(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, streamtest.Lines) }

func TestGrokTellsAUsageCapFromARateLimitByItsWords(t *testing.T) {
	cases := []struct {
		name string
		line string
		want errs.Code
	}{
		{"too many requests is a rate limit", `{"error":{"code":8,"message":"Too many requests","details":[]}}`, errs.RateLimited},
		{"a reached limit with an upgrade offer is a usage cap", `{"error":{"code":8,"message":"You've reached your limit. Please try again later or upgrade.","details":[]}}`, errs.UsageCap},
		{"another code is a failed turn", `{"error":{"code":13,"message":"Grok is under heavy usage right now."}}`, errs.GenerationError},
		{"a mode the plan lacks is a missing capability", `{"error":{"code":7,"message":"Requires TIER_SUPERGROK_LITE"}}`, errs.CapabilityMissing},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder()
			d.Write([]byte(c.line + "\n"))
			d.Close()
			if got := errs.CodeOf(d.Result().Err); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}

func TestGarbageIsCountedNotFatal(t *testing.T) {
	t.Run("a Grok line that is not JSON", func(t *testing.T) {
		streamtest.CheckGarbage(t, DecoderName, "<html>\n"+`{"result":{"response":{"isSoftStop":true}}}`+"\n")
	})
}

func TestARefusedSendIsReadFromItsGRPCStatus(t *testing.T) {
	cases := []struct {
		name, body string
		code       errs.Code
	}{
		{"code 8 Too many requests is a short rate limit", `{"code":8,"message":"Too many requests","details":[]}`, errs.RateLimited},
		{"code 8 with a plan's limit is a usage cap", `{"code":8,"message":"You've reached your limit. Please try again later or upgrade.","details":[]}`, errs.UsageCap},
		{"the same status wrapped in error", `{"error":{"code":8,"message":"Too many requests","details":[]}}`, errs.RateLimited},
		{"code 7 from the anti-bot layer is a check the user clears in the tab", `{"code":7,"message":"Request rejected by anti-bot rules.","details":[]}`, errs.CloudflareChallenge},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if e := NewDecoder().Refusal(429, []byte(c.body)); e == nil || e.Code != c.code || e.Evidence["status"] != "429" {
				t.Fatalf("Refusal = %+v, want %s", e, c.code)
			}
		})
	}
	if e := NewDecoder().Refusal(429, []byte(`{"detail":"nope"}`)); e != nil {
		t.Fatalf("a body without a code read as %+v", e)
	}
}
