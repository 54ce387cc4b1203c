package stream

import "github.com/ferrydesk/ferry/backend/errs"

// An error inside result.response joins the shared table, so the
// captured-stream test and the split-at-every-offset property cover it.
func init() {
	fixtures = append(fixtures, fixture{
		name: "a Grok error inside the response with code 13 becomes GenerationError keeping the text so far",
		file: "grok_response_error.ndjson", decoder: Grok,
		text: "Part", ended: true, conv: "0b5f8c1e-4d2a-4e7b-9c3d-2a1b0c9d8e7f", msgID: "r-7", errCode: errs.GenerationError,
	})
}
