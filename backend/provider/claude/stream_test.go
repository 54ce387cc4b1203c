package claude

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are Claude captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name:     "a Claude answer keeps text deltas, drops thinking deltas, and completes on message_stop",
		File:     "claude_basic.sse",
		Text:     "Cold spring rain—\nthe frog’s voice from the well 🐸",
		Complete: true, Ended: true, Finish: "end_turn", Model: "claude-opus-4-5", Source: "message_start.message.model",
		MsgID: "5c1e2d3f-aaaa-4bbb-8ccc-0123456789ab",
	},
	{
		Name: "a Claude overloaded_error event becomes GenerationError",
		File: "claude_overloaded.sse",
		Text: "Half an ans", Ended: true, Model: "claude-sonnet-4-5", Source: "message_start.message.model",
		MsgID: "chatcompl_02", ErrCode: errs.GenerationError,
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

func FuzzClaude(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, streamtest.Events) }

func TestGarbageIsCountedNotFatal(t *testing.T) {
	t.Run("a Claude event of an unknown type", func(t *testing.T) {
		streamtest.CheckGarbage(t, DecoderName, `data: {"type":"mystery"}`+"\n\n"+`data: {"type":"message_stop"}`+"\n\n")
	})
}

func TestARefusedCompletionAtTheUsageCapIsACapWithItsResetTime(t *testing.T) {
	cases := []struct {
		name  string
		body  string
		code  errs.Code
		reset string
	}{
		{"exceeded_limit inside the error message is a usage cap with resetsAt",
			`{"type":"error","error":{"type":"rate_limit_error","message":"{\"type\":\"exceeded_limit\",\"resetsAt\":1796054400,\"remaining\":0,\"perModelLimit\":false}"}}`,
			errs.UsageCap, "2026-11-30T16:00:00Z"},
		{"a plain rate_limit_error is a short rate limit",
			`{"type":"error","error":{"type":"rate_limit_error","message":"Too many requests. Please slow down."}}`,
			errs.RateLimited, ""},
		{"an authentication error needs a login",
			`{"type":"error","error":{"type":"authentication_error","message":"Invalid authorization"}}`,
			errs.LoginRequired, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e := NewDecoder().Refusal(429, []byte(c.body))
			if e == nil || e.Code != c.code || e.Evidence["resets_at"] != c.reset || e.Evidence["status"] != "429" {
				t.Fatalf("Refusal = %+v, want %s resetting at %q", e, c.code, c.reset)
			}
			if c.reset != "" && (e.Evidence["interstitial"] != "usage_cap" || e.RetryHint == "") {
				t.Fatalf("the cap envelope lacks its kind or hint: %+v", e)
			}
		})
	}
	if e := NewDecoder().Refusal(500, []byte("<html>oops</html>")); e != nil {
		t.Fatalf("a body that is not Claude's error read as %+v", e)
	}
}
