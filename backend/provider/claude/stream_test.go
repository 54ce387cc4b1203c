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
