package stream

import (
	"encoding/json"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The DeepSeek fixtures join the shared table, so the captured-stream test
// and the split-at-every-offset property both cover them.
func init() {
	fixtures = append(fixtures,
		fixture{
			name: "DeepSeek bare strings after a RESPONSE fragment is appended continue that fragment's text",
			file: "deepseek_bare_after_fragments.sse", decoder: DeepSeek,
			text:     "Here’s the answer: naïve café, 日本語 and 🚢.",
			complete: true, ended: true, finish: "FINISHED", model: "default", source: "ready.model_type", msgID: "2", title: "Sim answer",
		},
		fixture{
			name: "a DeepSeek 'sending messages too frequently' error frame becomes RateLimited",
			file: "deepseek_rate_limited.sse", decoder: DeepSeek,
			ended: true, model: "default", source: "ready.model_type", msgID: "2", errCode: errs.RateLimited,
		},
	)
}

func TestDeepSeekBareValuesAfterAFragmentsAppend(t *testing.T) {
	const head = `data: {"v":{"response":{"message_id":2,"status":"WIP","fragments":[]}}}` + "\n"
	cases := []struct {
		name, body, text, thinking string
	}{
		{
			name:     "a bare string after a RESPONSE fragment is appended goes to that fragment",
			body:     `data: {"p":"response/fragments","o":"APPEND","v":[{"type":"RESPONSE","content":"R"}]}` + "\n" + `data: {"v":"est"}` + "\n",
			text:     "Rest",
			thinking: "",
		},
		{
			name:     "a bare string after a THINK fragment is appended stays thinking and never becomes answer text",
			body:     `data: {"p":"response/fragments","o":"APPEND","v":[{"type":"THINK","content":"hm"}]}` + "\n" + `data: {"v":"m"}` + "\n",
			text:     "",
			thinking: "hmm",
		},
		{
			name: "a bare string after a content APPEND continues that content",
			body: `data: {"p":"response/fragments","o":"APPEND","v":[{"type":"RESPONSE","content":""}]}` + "\n" +
				`data: {"p":"response/fragments/-1/content","o":"APPEND","v":"a"}` + "\n" + `data: {"v":"b"}` + "\n",
			text: "ab",
		},
		{
			name: "text after the switch from THINK to RESPONSE lands only in the answer",
			body: `data: {"p":"response/fragments","o":"APPEND","v":[{"type":"THINK","content":"t"}]}` + "\n" + `data: {"v":"1"}` + "\n" +
				`data: {"p":"response/fragments","o":"APPEND","v":[{"type":"RESPONSE","content":"a"}]}` + "\n" + `data: {"v":"b"}` + "\n" + `data: {"v":"c"}` + "\n",
			text:     "abc",
			thinking: "t1",
		},
		{
			name: "a bare fragment list after a fragments APPEND adds fragments",
			body: `data: {"p":"response/fragments","o":"APPEND","v":[{"type":"RESPONSE","content":"a"}]}` + "\n" +
				`data: {"v":[{"type":"RESPONSE","content":"b"}]}` + "\n" + `data: {"v":"c"}` + "\n",
			text: "abc",
		},
		{
			name: "a bare string with no fragments yet is malformed, not text",
			body: `data: {"p":"response/fragments","o":"APPEND","v":[]}` + "\n" + `data: {"v":"lost"}` + "\n",
			text: "",
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDeepSeek()
			_, _ = d.Write([]byte(head + tc.body))
			_ = d.Close()
			if got := d.Result().Text; got != tc.text {
				t.Fatalf("answer %q, want %q", got, tc.text)
			}
			if got := d.Thinking(); got != tc.thinking {
				t.Fatalf("thinking %q, want %q", got, tc.thinking)
			}
		})
	}
}

func TestDeepSeekErrorWordingGivesTheCode(t *testing.T) {
	cases := []struct {
		name, content string
		code          errs.Code
	}{
		{"sending messages too frequently is a rate limit", "You are sending messages too frequently. Please wait a moment before sending again.", errs.RateLimited},
		{"requests too frequent is a rate limit", "Requests are too frequent, please try again later.", errs.RateLimited},
		{"too many requests is a rate limit", "Too many requests", errs.RateLimited},
		{"the daily usage limit is a usage cap", "You have reached the daily usage limit.", errs.UsageCap},
		{"a busy server is a generation error", "The server is busy. Please try again later.", errs.GenerationError},
		{"an empty error is a generation error", "", errs.GenerationError},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := NewDeepSeek()
			_, _ = d.Write([]byte(`data: {"type":"error","content":` + quote(tc.content) + "}\n\n"))
			_ = d.Close()
			r := d.Result()
			if r.Err == nil || r.Err.Code != tc.code {
				t.Fatalf("error %+v, want %s", r.Err, tc.code)
			}
			if r.Complete {
				t.Fatalf("an error frame completed the turn")
			}
		})
	}
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
