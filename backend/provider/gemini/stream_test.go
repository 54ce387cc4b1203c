package gemini

import (
	"bytes"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are Gemini captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name:     "Gemini frames counted in UTF-16 units give the last full text and complete on status 2",
		File:     "gemini_basic.txt",
		Text:     "Here is a poem 🌙 about the moon 𝄞.\n\nSilver light.",
		Complete: true, Ended: true, Finish: "status 2", Model: "gemini-3-pro", Source: "body[42]",
		Conv: "c_9f8e7d6c5b4a3921", MsgID: "rc_0123456789abcdef",
	},
	{
		Name: "a Gemini error 1037 becomes UsageCap",
		File: "gemini_usage_limit.txt", Ended: true, ErrCode: errs.UsageCap,
	},
	{
		Name: "a BardErrorInfo code Ferry does not know after a partial answer is a generation error, not that partial answer",
		File: "gemini_error_info.txt", Text: "Here is ", Ended: true, ErrCode: errs.GenerationError,
		Model: "gemini-3-pro", Source: "body[42]", Conv: "c_9f8e7d6c5b4a3921", MsgID: "rc_0123456789abcdef",
	},
	{
		Name: "a failed status without a BardErrorInfo is a generation error too",
		File: "gemini_error_status.txt", Text: "Here is ", Ended: true, ErrCode: errs.GenerationError,
		Model: "gemini-3-pro", Source: "body[42]", Conv: "c_9f8e7d6c5b4a3921", MsgID: "rc_0123456789abcdef",
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

func FuzzGemini(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, frameUnits) }

// frameUnits cuts a capture into its frames, each a length line and its
// JSON line (units for Fuzz).
func frameUnits(body []byte) [][]byte {
	lines := bytes.SplitAfter(body, []byte("\n"))
	var out [][]byte
	for i := 0; i+1 < len(lines); i += 2 {
		out = append(out, append(append([]byte(nil), lines[i]...), lines[i+1]...))
	}
	return out
}
