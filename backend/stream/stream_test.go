package stream

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
)

// fixture is a captured-style stream in testdata and what decoding it gives.
type fixture struct {
	name     string
	file     string
	decoder  string
	text     string
	complete bool
	ended    bool
	finish   string
	model    string
	source   string
	conv     string
	msgID    string
	title    string
	handoff  bool
	errCode  errs.Code
}

var fixtures = []fixture{
	{
		name: "a ChatGPT answer is assembled from inherited appends and a final patch, without its citation",
		file: "chatgpt_basic.sse", decoder: ChatGPT,
		text:     "Here’s a list of three fruits:\n\n1. Apple\n2. Banana 🍌 (they are yellow )\n3. Cherry — naïve café.",
		complete: true, ended: true, finish: "stop", model: "gpt-5-2", source: "metadata.model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003", title: "Fruit list",
	},
	{
		name: "a ChatGPT thinking answer is the final channel, not commentary, code or tool output",
		file: "chatgpt_thinking_tools.sse", decoder: ChatGPT,
		text:     "Done: [project.zip](sandbox:/mnt/data/project.zip) is ready.",
		complete: true, ended: true, finish: "stop", model: "gpt-5-6-thinking-high", source: "metadata.resolved_model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "final-1", title: "Zip project",
	},
	{
		name: "a ChatGPT stream that ends with [DONE] but no message_stream_complete is not complete",
		file: "chatgpt_done_without_complete.sse", decoder: ChatGPT,
		text: "The essay begins and is cut", ended: true, finish: "interrupted", model: "gpt-5-2", source: "metadata.model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		name: "a ChatGPT conversation_too_large frame becomes ConversationTooLong",
		file: "chatgpt_conversation_too_large.sse", decoder: ChatGPT,
		ended: true, conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", errCode: errs.ConversationTooLong,
	},
	{
		name: "a ChatGPT typed error frame with conversation_too_large becomes ConversationTooLong",
		file: "chatgpt_type_error.sse", decoder: ChatGPT,
		ended: true, conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", errCode: errs.ConversationTooLong,
	},
	{
		name: "a ChatGPT error frame without a known code becomes GenerationError",
		file: "chatgpt_generic_error.sse", decoder: ChatGPT,
		ended: true, model: "gpt-5-2", source: "metadata.model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003", errCode: errs.GenerationError,
	},
	{
		name: "a ChatGPT stream_handoff is reported and its [DONE] does not complete the turn",
		file: "chatgpt_handoff.sse", decoder: ChatGPT,
		text: "Starting research", ended: true, handoff: true, model: "gpt-5-2", source: "metadata.model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		name: "ChatGPT bare op lists and a bare value after a patch continue the patch",
		file: "chatgpt_bare_op_lists.sse", decoder: ChatGPT,
		text: "one two three", complete: true, ended: true, finish: "finished_successfully", model: "gpt-5-2", source: "metadata.model_slug",
		conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", msgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		name: "a DeepSeek answer with a BOM and CRLF lines keeps RESPONSE fragments and drops THINK",
		file: "deepseek_basic.sse", decoder: DeepSeek,
		text:     "Autumn moonlight—\n a worm digs silently\n into the chestnut. 🌰",
		complete: true, ended: true, finish: "FINISHED", model: "expert", source: "ready.model_type", msgID: "2", title: "Autumn haiku",
	},
	{
		name: "a DeepSeek error frame becomes GenerationError and the turn stays incomplete",
		file: "deepseek_error.sse", decoder: DeepSeek,
		text: "Par", ended: true, model: "default", source: "ready.model_type", msgID: "4", errCode: errs.GenerationError,
	},
	{
		name: "the older DeepSeek response/content format still decodes",
		file: "deepseek_legacy_content.sse", decoder: DeepSeek,
		text: "Hello, world", complete: true, ended: true, finish: "FINISHED", model: "default", source: "ready.model_type", msgID: "6",
	},
	{
		name: "a Grok NDJSON answer skips thinking tokens and ends with the full modelResponse",
		file: "grok_new_conversation.ndjson", decoder: Grok,
		text:     "Tides are caused by the Moon’s gravity pulling on Earth’s oceans 🌊.",
		complete: true, ended: true, finish: "isSoftStop", model: "grok-4", source: "modelResponse.model",
		conv: "0b5f8c1e-4d2a-4e7b-9c3d-2a1b0c9d8e7f", msgID: "r-1", title: "Tides explained",
	},
	{
		name: "a Grok error line with code 8 becomes RateLimited",
		file: "grok_rate_limited.ndjson", decoder: Grok,
		text: "Partial ", ended: true, msgID: "r-9", errCode: errs.RateLimited,
	},
	{
		name: "a Claude answer keeps text deltas, drops thinking deltas, and completes on message_stop",
		file: "claude_basic.sse", decoder: Claude,
		text:     "Cold spring rain—\nthe frog’s voice from the well 🐸",
		complete: true, ended: true, finish: "end_turn", model: "claude-opus-4-5", source: "message_start.message.model",
		msgID: "5c1e2d3f-aaaa-4bbb-8ccc-0123456789ab",
	},
	{
		name: "a Claude overloaded_error event becomes GenerationError",
		file: "claude_overloaded.sse", decoder: Claude,
		text: "Half an ans", ended: true, model: "claude-sonnet-4-5", source: "message_start.message.model",
		msgID: "chatcompl_02", errCode: errs.GenerationError,
	},
	{
		name: "a Kimi Connect stream with a gzip frame sets and appends block text and completes on done",
		file: "kimi_basic.connect", decoder: Kimi,
		text: "Nile, Amazon, Yangtze 长江.", complete: true, ended: true, finish: "MESSAGE_STATUS_COMPLETED",
		conv: "d4k1m1c0hat0000000001", msgID: "m-asst-1", title: "New chat", model: "SCENARIO_K2", source: "message.scenario",
	},
	{
		name: "a Kimi end-of-stream frame with resource_exhausted becomes RateLimited",
		file: "kimi_resource_exhausted.connect", decoder: Kimi,
		text: "Sorry", ended: true, msgID: "m-asst-2", errCode: errs.RateLimited,
	},
	{
		name: "Gemini frames counted in UTF-16 units give the last full text and complete on status 2",
		file: "gemini_basic.txt", decoder: Gemini,
		text:     "Here is a poem 🌙 about the moon 𝄞.\n\nSilver light.",
		complete: true, ended: true, finish: "status 2", model: "gemini-3-pro", source: "body[42]",
		conv: "c_9f8e7d6c5b4a3921", msgID: "rc_0123456789abcdef",
	},
	{
		name: "a Gemini error 1037 becomes UsageCap",
		file: "gemini_usage_limit.txt", decoder: Gemini, ended: true, errCode: errs.UsageCap,
	},
}

func readFixture(t testing.TB, file string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", file))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func decodeChunks(t testing.TB, name string, chunks ...[]byte) Result {
	t.Helper()
	d, err := New(name)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range chunks {
		_, _ = d.Write(c)
	}
	_ = d.Close()
	return d.Result()
}

func TestDecodersReadCapturedStreams(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.name, func(t *testing.T) {
			r := decodeChunks(t, f.decoder, readFixture(t, f.file))
			if r.Text != f.text {
				t.Errorf("text = %q, want %q", r.Text, f.text)
			}
			if r.Complete != f.complete || r.Ended != f.ended {
				t.Errorf("complete, ended = %v, %v; want %v, %v", r.Complete, r.Ended, f.complete, f.ended)
			}
			if r.FinishReason != f.finish {
				t.Errorf("finish = %q, want %q", r.FinishReason, f.finish)
			}
			if r.Model != f.model || r.ModelSource != f.source {
				t.Errorf("model = %q from %q, want %q from %q", r.Model, r.ModelSource, f.model, f.source)
			}
			if r.ConversationID != f.conv || r.MessageID != f.msgID || r.Title != f.title {
				t.Errorf("ids = %q %q %q, want %q %q %q", r.ConversationID, r.MessageID, r.Title, f.conv, f.msgID, f.title)
			}
			if r.Handoff != f.handoff {
				t.Errorf("handoff = %v", r.Handoff)
			}
			if got := errs.CodeOf(errOf(r)); got != f.errCode {
				t.Errorf("error code = %q, want %q (%v)", got, f.errCode, r.Err)
			}
			if r.Malformed != 0 {
				t.Errorf("%d units were malformed in a well-formed capture", r.Malformed)
			}
		})
	}
}

func errOf(r Result) error {
	if r.Err == nil {
		return nil
	}
	return r.Err
}

// TestSplittingAnywhereGivesTheSameResult feeds every fixture split at every
// byte offset (and one byte at a time) and demands the same result as the
// whole body: chunk boundaries inside lines, frame headers and multibyte
// characters must not matter.
func TestSplittingAnywhereGivesTheSameResult(t *testing.T) {
	for _, f := range fixtures {
		t.Run(f.file+" decodes the same however it is split", func(t *testing.T) {
			body := readFixture(t, f.file)
			want := decodeChunks(t, f.decoder, body)
			for i := 0; i <= len(body); i++ {
				got := decodeChunks(t, f.decoder, body[:i], body[i:])
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("split at %d: got %+v\nwant %+v", i, got, want)
				}
			}
			d, _ := New(f.decoder)
			wasComplete := false
			for i := range body {
				_, _ = d.Write(body[i : i+1])
				r := d.Result()
				if !utf8.ValidString(r.Text) {
					t.Fatalf("partial text after %d bytes is not valid UTF-8: %q", i+1, r.Text)
				}
				if wasComplete && !r.Complete {
					t.Fatalf("completion was taken back after %d bytes", i+1)
				}
				wasComplete = r.Complete
			}
			_ = d.Close()
			if got := d.Result(); !reflect.DeepEqual(got, want) {
				t.Fatalf("byte at a time: got %+v\nwant %+v", got, want)
			}
		})
	}
}

func TestPartialTextGrowsWhileTheAnswerStreams(t *testing.T) {
	body := readFixture(t, "chatgpt_basic.sse")
	d := NewChatGPT()
	var seen []string
	completed := false
	for _, line := range strings.SplitAfter(string(body), "\n\n") {
		_, _ = d.Write([]byte(line))
		r := d.Result()
		if len(seen) == 0 || seen[len(seen)-1] != r.Text {
			seen = append(seen, r.Text)
		}
		if r.Complete != completed && !strings.Contains(line, "message_stream_complete") {
			t.Fatalf("completion changed on a chunk without message_stream_complete: %q", line)
		}
		completed = r.Complete
	}
	if !completed {
		t.Fatal("the turn never completed")
	}
	if len(seen) < 6 {
		t.Fatalf("expected the text to grow in steps, saw %q", seen)
	}
	if seen[1] != "Here’s" || seen[2] != "Here’s a list" {
		t.Fatalf("the bare delta after the first append must continue it: %q", seen[:3])
	}
}

func TestChatGPTExposesEveryMessageForScanning(t *testing.T) {
	d := NewChatGPT()
	_, _ = d.Write(readFixture(t, "chatgpt_thinking_tools.sse"))
	_ = d.Close()
	msgs := d.Messages()
	byID := map[string]Message{}
	for _, m := range msgs {
		byID[m.ID] = m
	}
	cases := []struct {
		name  string
		id    string
		check func(Message) bool
	}{
		{"the system message keeps its hidden flag", "d4a1f0e2-0000-4000-8000-000000000001",
			func(m Message) bool {
				return m.Role == "system" && m.Metadata["is_visually_hidden_from_conversation"] == true
			}},
		{"the user message carries the prompt", "a7e3c9b0-1111-4aaa-8bbb-000000000002",
			func(m Message) bool { return m.Role == "user" && m.Text == "Build the project and zip it" }},
		{"the thoughts message is rendered from its thoughts", "th-1",
			func(m Message) bool { return m.ContentType == "thoughts" && m.Text == "I should write files." }},
		{"the commentary message keeps its channel", "cm-1",
			func(m Message) bool { return m.Channel == "commentary" && m.Text == "Let me create the files first." }},
		{"the code message is assembled from an inherited append", "code-1",
			func(m Message) bool {
				return m.ContentType == "code" && m.Recipient == "python" &&
					m.Text == "import zipfile\nzipfile.ZipFile('/mnt/data/project.zip','w').close()\n'/mnt/data/project.zip'"
			}},
		{"the tool output keeps the sandbox path and aggregate_result", "tool-1",
			func(m Message) bool {
				ar, _ := m.Metadata["aggregate_result"].(map[string]any)
				return m.Role == "tool" && m.Name == "python" && m.Text == "'/mnt/data/project.zip'" &&
					ar["final_expression_output"] == "'/mnt/data/project.zip'"
			}},
		{"the final message is finished and ends the turn", "final-1",
			func(m Message) bool { return m.Status == "finished_successfully" && m.EndTurn && m.Channel == "final" }},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, ok := byID[c.id]
			if !ok || !c.check(m) {
				t.Fatalf("message %s = %+v", c.id, m)
			}
		})
	}
	if len(msgs) != 8 {
		t.Fatalf("got %d messages, want 8", len(msgs))
	}
	if l := d.Limits(); len(l) != 1 || l[0].Feature != "deep_research" || l[0].Remaining != 25 {
		t.Fatalf("limits = %+v", l)
	}
	if d.Encoding() != "v1" {
		t.Fatalf("encoding = %q", d.Encoding())
	}
}

func TestChatGPTIgnoresInternalModelNamesAsProof(t *testing.T) {
	body := `data: {"type":"server_ste_metadata","metadata":{"model_slug":"i-mini"},"conversation_id":"c1"}` + "\n\n"
	r := decodeChunks(t, ChatGPT, []byte(body))
	if r.Model != "" {
		t.Fatalf("server_ste_metadata must not be model proof, got %q", r.Model)
	}
}

func TestCitationSpansAreStripped(t *testing.T) {
	cases := []struct{ name, in, want string }{
		{"a closed span disappears whole", "A\ue200cite\ue202turn0search2\ue201B", "AB"},
		{"two spans both disappear", "\ue200x\ue201A\ue200entity\ue202[\"a\"]\ue201", "A"},
		{"an unclosed span at the end is hidden until it closes", "Answer \ue200cite\ue202tu", "Answer "},
		{"a stray separator is dropped", "a\ue203b", "ab"},
		{"text without markers is untouched", "plain ✓", "plain ✓"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := stripCitations(c.in); got != c.want {
				t.Fatalf("stripCitations(%q) = %q, want %q", c.in, got, c.want)
			}
		})
	}
}

func TestUnknownDecoderNameIsBadInputListingTheNames(t *testing.T) {
	_, err := New("nope")
	if !errs.Has(err, errs.BadInput) {
		t.Fatalf("err = %v", err)
	}
	if e := errs.From(err); !strings.Contains(e.RetryHint, ChatGPT) {
		t.Fatalf("hint does not list decoders: %q", e.RetryHint)
	}
	if len(Names()) != 6 {
		t.Fatalf("names = %v", Names())
	}
}

func TestGarbageIsCountedNotFatal(t *testing.T) {
	cases := []struct {
		name, decoder, body string
	}{
		{"a ChatGPT line that is not JSON", ChatGPT, "data: {not json\n\n" + `data: {"type":"message_stream_complete"}` + "\n\n"},
		{"a DeepSeek op that is unknown", DeepSeek, `data: {"p":"response","o":"EXPLODE","v":1}` + "\n" + `data: {"p":"response/status","o":"SET","v":"FINISHED"}` + "\n"},
		{"a Grok line that is not JSON", Grok, "<html>\n" + `{"result":{"response":{"isSoftStop":true}}}` + "\n"},
		{"a Claude event of an unknown type", Claude, `data: {"type":"mystery"}` + "\n\n" + `data: {"type":"message_stop"}` + "\n\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := decodeChunks(t, c.decoder, []byte(c.body))
			if r.Malformed != 1 || !r.Complete {
				t.Fatalf("got %+v, want one malformed unit and the turn still complete", r)
			}
		})
	}
}

func TestKimiRefusesAnAbsurdFrameLength(t *testing.T) {
	r := decodeChunks(t, Kimi, []byte{0, 0xFF, 0xFF, 0xFF, 0xFF, '{', '}'})
	if r.Malformed != 1 || r.Complete {
		t.Fatalf("got %+v", r)
	}
}

func TestAChatGPTMessageForANewChannelIsNeverAppendedToTheLastPath(t *testing.T) {
	body := `data: {"p":"","o":"add","v":{"message":{"id":"a","author":{"role":"assistant"},"content":{"content_type":"text","parts":[""]},"channel":"commentary"}},"c":0}` + "\n\n" +
		`data: {"p":"/message/content/parts/0","o":"append","v":"thinking aloud"}` + "\n\n" +
		`data: {"v":{"message":{"id":"b","author":{"role":"assistant"},"content":{"content_type":"text","parts":["final"]},"channel":"final"}},"c":1}` + "\n\n" +
		`data: {"p":"/message/content/parts/0","o":"append","v":" answer"}` + "\n\n"
	r := decodeChunks(t, ChatGPT, []byte(body))
	if r.Text != "final answer" || r.MessageID != "b" || r.Malformed != 0 {
		t.Fatalf("got %+v", r)
	}
}

func TestDeltaTellsExtensionFromRewrite(t *testing.T) {
	cases := []struct {
		name, prev, cur, added string
		rewritten              bool
	}{
		{"an extension gives the new tail", "Here", "Here’s", "’s", false},
		{"no change gives nothing", "same", "same", "", false},
		{"a rewrite gives the whole text", "Partial tok", "Partial", "Partial", true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			added, rw := Delta(c.prev, c.cur)
			if added != c.added || rw != c.rewritten {
				t.Fatalf("Delta = %q, %v", added, rw)
			}
		})
	}
}
