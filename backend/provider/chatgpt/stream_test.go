package chatgpt

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/stream/streamtest"
)

// fixtures are ChatGPT captures in testdata and what decoding them gives; the
// captured-stream test, the split-at-every-offset property, the seeded
// mutations and the fuzz corpus all read them.
var fixtures = []streamtest.Fixture{
	{
		Name:     "a ChatGPT answer is assembled from inherited appends and a final patch, without its citation",
		File:     "chatgpt_basic.sse",
		Text:     "Here’s a list of three fruits:\n\n1. Apple\n2. Banana 🍌 (they are yellow)\n3. Cherry — naïve café.",
		Complete: true, Ended: true, Finish: "stop", Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003", Title: "Fruit list",
	},
	{
		Name:     "a ChatGPT thinking answer is the final channel, not commentary, code or tool output",
		File:     "chatgpt_thinking_tools.sse",
		Text:     "Done: [project.zip](sandbox:/mnt/data/project.zip) is ready.",
		Complete: true, Ended: true, Finish: "stop", Model: "gpt-5-6-thinking-high", Source: "metadata.resolved_model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "final-1", Title: "Zip project",
	},
	{
		Name: "a ChatGPT stream that ends with [DONE] but no message_stream_complete is not complete",
		File: "chatgpt_done_without_complete.sse",
		Text: "The essay begins and is cut", Ended: true, Finish: "interrupted", Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		Name:  "a ChatGPT conversation_too_large frame becomes ConversationTooLong",
		File:  "chatgpt_conversation_too_large.sse",
		Ended: true, Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", ErrCode: errs.ConversationTooLong,
	},
	{
		Name:  "a ChatGPT typed error frame with conversation_too_large becomes ConversationTooLong",
		File:  "chatgpt_type_error.sse",
		Ended: true, Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", ErrCode: errs.ConversationTooLong,
	},
	{
		Name:  "a ChatGPT error frame without a known code becomes GenerationError",
		File:  "chatgpt_generic_error.sse",
		Ended: true, Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003", ErrCode: errs.GenerationError,
	},
	{
		Name: "a ChatGPT stream_handoff is reported and its [DONE] does not complete the turn",
		File: "chatgpt_handoff.sse",
		Text: "Starting research", Ended: true, Handoff: true, Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		Name:     "a ChatGPT web search answer keeps its citations as the links content_references give, hidden and empty ones dropped",
		File:     "chatgpt_web_search.sse",
		Text:     "The ferry timetable changed this week " + webSearchTimetable + ". The new pier opens in May " + webSearchPier + ". Nothing else was found.",
		Complete: true, Ended: true, Finish: "stop", Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
	},
	{
		Name: "ChatGPT bare op lists and a bare value after a patch continue the patch",
		File: "chatgpt_bare_op_lists.sse",
		Text: "one two three", Complete: true, Ended: true, Finish: "finished_successfully", Model: "gpt-5-2", Source: "metadata.model_slug",
		Conv: "6974e0a3-1b2c-800d-9a4e-5f0c2d7e8a11", MsgID: "0fe9b7c1-2222-4ccc-8ddd-000000000003",
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

func FuzzChatGPT(f *testing.F) { streamtest.Fuzz(f, DecoderName, fixtures, streamtest.Events) }

// The links of chatgpt_web_search.sse's citations.
const (
	webSearchTimetable = "([Harbour Times](https://harbour.example/timetable))"
	webSearchPier      = "([Port Authority](https://port.example/pier), [Example News](https://news.example/pier))"
)

// TestACitationBecomesItsLinkWhenItsReferenceArrives: while a web search
// answer streams, a citation span still open is hidden, a closed span
// whose content_references entry has not come yet is dropped, and the link
// shows as soon as the entry arrives; no partial text ever holds a
// sentinel.
func TestACitationBecomesItsLinkWhenItsReferenceArrives(t *testing.T) {
	body := streamtest.ReadFixture(t, "chatgpt_web_search.sse")
	d := NewDecoder()
	var seen []string
	for _, ev := range strings.SplitAfter(string(body), "\n\n") {
		_, _ = d.Write([]byte(ev))
		r := d.Result()
		if strings.ContainsFunc(r.Text, isCiteRune) {
			t.Fatalf("partial text %q holds a citation sentinel", r.Text)
		}
		if len(seen) == 0 || seen[len(seen)-1] != r.Text {
			seen = append(seen, r.Text)
		}
	}
	want := []string{
		"",
		"The ferry timetable changed ",
		"The ferry timetable changed this week ",
		"The ferry timetable changed this week. The new pier",
		"The ferry timetable changed this week " + webSearchTimetable + ". The new pier",
	}
	if len(seen) < len(want)+1 || strings.Join(seen[:len(want)], "|") != strings.Join(want, "|") {
		t.Fatalf("partial texts %q, want them to start %q", seen, want)
	}
}

func TestPartialTextGrowsWhileTheAnswerStreams(t *testing.T) {
	body := streamtest.ReadFixture(t, "chatgpt_basic.sse")
	d := NewDecoder()
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
	d := NewDecoder()
	_, _ = d.Write(streamtest.ReadFixture(t, "chatgpt_thinking_tools.sse"))
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
	r := streamtest.DecodeChunks(t, DecoderName, []byte(body))
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

func TestAChatGPTMessageForANewChannelIsNeverAppendedToTheLastPath(t *testing.T) {
	body := `data: {"p":"","o":"add","v":{"message":{"id":"a","author":{"role":"assistant"},"content":{"content_type":"text","parts":[""]},"channel":"commentary"}},"c":0}` + "\n\n" +
		`data: {"p":"/message/content/parts/0","o":"append","v":"thinking aloud"}` + "\n\n" +
		`data: {"v":{"message":{"id":"b","author":{"role":"assistant"},"content":{"content_type":"text","parts":["final"]},"channel":"final"}},"c":1}` + "\n\n" +
		`data: {"p":"/message/content/parts/0","o":"append","v":" answer"}` + "\n\n"
	r := streamtest.DecodeChunks(t, DecoderName, []byte(body))
	if r.Text != "final answer" || r.MessageID != "b" || r.Malformed != 0 {
		t.Fatalf("got %+v", r)
	}
}

func TestGarbageIsCountedNotFatal(t *testing.T) {
	t.Run("a ChatGPT line that is not JSON", func(t *testing.T) {
		streamtest.CheckGarbage(t, DecoderName, "data: {not json\n\n"+`data: {"type":"message_stream_complete"}`+"\n\n")
	})
}
