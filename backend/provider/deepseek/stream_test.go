package deepseek

import (
	"encoding/json"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are DeepSeek captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name:     "a DeepSeek answer with a BOM and CRLF lines keeps RESPONSE fragments and drops THINK",
		File:     "deepseek_basic.sse",
		Text:     "Autumn moonlight—\n a worm digs silently\n into the chestnut. 🌰",
		Complete: true, Ended: true, Finish: "FINISHED", Model: "expert", Source: "ready.model_type", MsgID: "2", Title: "Autumn haiku",
	},
	{
		Name: "a DeepSeek error frame becomes GenerationError and the turn stays incomplete",
		File: "deepseek_error.sse",
		Text: "Par", Ended: true, Model: "default", Source: "ready.model_type", MsgID: "4", ErrCode: errs.GenerationError,
	},
	{
		Name: "the older DeepSeek response/content format still decodes",
		File: "deepseek_legacy_content.sse",
		Text: "Hello, world", Complete: true, Ended: true, Finish: "FINISHED", Model: "default", Source: "ready.model_type", MsgID: "6",
	},
	{
		Name:     "DeepSeek bare strings after a RESPONSE fragment is appended continue that fragment's text",
		File:     "deepseek_bare_after_fragments.sse",
		Text:     "Here’s the answer: naïve café, 日本語 and 🚢.",
		Complete: true, Ended: true, Finish: "FINISHED", Model: "default", Source: "ready.model_type", MsgID: "2", Title: "Sim answer",
	},
	{
		Name:  "a DeepSeek 'sending messages too frequently' error frame becomes RateLimited",
		File:  "deepseek_rate_limited.sse",
		Ended: true, Model: "default", Source: "ready.model_type", MsgID: "2", ErrCode: errs.RateLimited,
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

func FuzzDeepSeek(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, streamtest.Events) }

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
			d := NewDecoder()
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
			d := NewDecoder()
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

func TestGarbageIsCountedNotFatal(t *testing.T) {
	t.Run("a DeepSeek op that is unknown", func(t *testing.T) {
		streamtest.CheckGarbage(t, DecoderName, `data: {"p":"response","o":"EXPLODE","v":1}`+"\n"+`data: {"p":"response/status","o":"SET","v":"FINISHED"}`+"\n")
	})
}

func TestARefusalSentAsPlainJSONIsRead(t *testing.T) {
	cases := []struct {
		name, body string
		code       errs.Code
		reason     string
	}{
		{"an outdated web client (40005) is reloaded, not answered", `{"code":40005,"msg":"CLIENT_VERSION_TOO_LOW","data":null}`, errs.GenerationError, ClientOutdated},
		{"an invalid token is a login", "\ufeff" + `{"code":40003,"msg":"Authorization Failed (invalid token)","data":null}`, errs.LoginRequired, ""},
		{"another code is a generation error naming it", `{"code":40301,"msg":"Missing PoW response","data":null}`, errs.GenerationError, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := NewDecoder()
			d.Write([]byte(c.body))
			d.Close()
			e := errs.From(d.Result().Err)
			if d.Result().Err == nil || e.Code != c.code || e.Evidence["reason"] != c.reason || e.Evidence["error_code"] == "" {
				t.Fatalf("Result().Err = %+v, want %s (reason %q) with its code", e, c.code, c.reason)
			}
		})
	}
	d := NewDecoder()
	d.Write([]byte(`{"code":0,"msg":"","data":{}}`))
	d.Close()
	if d.Result().Err != nil {
		t.Fatalf("a code 0 answer read as %v", d.Result().Err)
	}
}
