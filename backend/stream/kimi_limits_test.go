package stream

import (
	"encoding/binary"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

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
			r := decodeChunks(t, Kimi, connect(2, body))
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
	r := decodeChunks(t, Kimi, b)
	if r.Model != "SCENARIO_K2" || r.ModelSource != "message.scenario" || r.Text != "Hi" || !r.Complete {
		t.Fatalf("got %+v, want the scenario as the model", r)
	}
	b = append(connect(0, `{"op":"set","mask":"message","message":{"id":"m1","role":"assistant","model":"kimi-k2","scenario":"SCENARIO_K2"}}`), b...)
	if r := decodeChunks(t, Kimi, b); r.Model != "kimi-k2" || r.ModelSource != "message.model" {
		t.Fatalf("got %+v, want the named model to win over the scenario", r)
	}
}
