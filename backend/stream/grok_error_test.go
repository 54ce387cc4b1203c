package stream

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// An error inside result.response joins the shared table, so the
// captured-stream test and the split-at-every-offset property cover it.
func init() {
	fixtures = append(fixtures, fixture{
		name: "a Grok error inside the response with code 13 becomes GenerationError keeping the text so far",
		file: "grok_response_error.ndjson", decoder: Grok,
		text: "Part", ended: true, conv: "0b5f8c1e-4d2a-4e7b-9c3d-2a1b0c9d8e7f", msgID: "r-7", errCode: errs.GenerationError,
	})
}

func TestGrokTellsAUsageCapFromARateLimitByItsWords(t *testing.T) {
	cases := []struct {
		name string
		line string
		want errs.Code
	}{
		{"too many requests is a rate limit", `{"error":{"code":8,"message":"Too many requests","details":[]}}`, errs.RateLimited},
		{"a reached limit with an upgrade offer is a usage cap", `{"error":{"code":8,"message":"You've reached your limit. Please try again later or upgrade.","details":[]}}`, errs.UsageCap},
		{"another code is a failed turn", `{"error":{"code":13,"message":"Grok is under heavy usage right now."}}`, errs.GenerationError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewGrok()
			d.Write([]byte(c.line + "\n"))
			d.Close()
			if got := errs.CodeOf(d.Result().Err); got != c.want {
				t.Fatalf("got %s, want %s", got, c.want)
			}
		})
	}
}
