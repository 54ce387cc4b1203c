package chatgpt_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/chatgpt"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/site"
)

// searchAnswer is the simulator's web search answer to prompt as Ferry
// returns it: each citation span a Markdown link to its sources, named by
// their attribution or title (brackets escaped), the utm_source the site
// adds dropped, the hidden marker, the span with no sources and the
// footnote gone.
func searchAnswer(prompt string) string {
	return "Here’s the latest on “" + prompt + "”: the ferry timetable changed this week ([Harbour Times](https://harbour.example/timetable))." +
		" The new pier opens in May ([Port Authority](https://port.example/pier), [Pier \\[phase 2\\] opens](https://news.example/pier?lang=en))." +
		"\n\nOne search found nothing useful. That is the whole answer."
}

// TestAWebSearchAnswerKeepsItsCitationsAsLinks: a run with web search ends
// with the answer's citations as Markdown links, whether the text comes
// from the stream, whose content_references arrive as patches during and
// after the text, or from the conversation, which carries them whole: the
// two agree (no warning says they differ) and the canonical text is the
// answer.
func TestAWebSearchAnswerKeepsItsCitationsAsLinks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{})
	prompt := "What changed at the harbour"
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt, Tool: "web-search"})
	if err != nil {
		t.Fatal(err)
	}
	if subs := tab.H.Server.Submissions(chatgpt.ID); len(subs) != 1 || !slices.Equal(subs[0].Tools, []string{"search"}) {
		t.Fatalf("submissions %+v, want one with web search", subs)
	}
	if res.Answer != searchAnswer(prompt) {
		t.Fatalf("answer\n%q\nwant\n%q", res.Answer, searchAnswer(prompt))
	}
	if res.Transport.Source != "stream" || res.Content.Source != "conversation_api" || len(res.Warnings) != 0 {
		t.Fatalf("transport %+v content %+v warnings %v: want the stream's text equal to the conversation's", res.Transport, res.Content, res.Warnings)
	}
}

// TestAWebSearchAnswerReadFromThePageKeepsItsPillsAsLinks: with the stream
// disabled and the conversation not known (the tab's address stays
// transient), the answer is the page's text, each citation pill the link
// to the first source it shows, its "+1" gone.
func TestAWebSearchAnswerReadFromThePageKeepsItsPillsAsLinks(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	tab := providertest.Open(t, ctx, chatgpt.ID, factory, providertest.Setup{
		Scenario: sim.ScenarioLocalChatURL, Params: map[string]string{"durable_after": "3600000"},
		Overrides: []site.Override{{ID: chatgpt.ID, Stream: &site.StreamOverride{Disabled: true}}},
	})
	prompt := "What changed at the harbour"
	res, err := tab.Ask(t, ctx, providertest.Request{Prompt: prompt, Tool: "web-search"})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("page answer %q, warnings %v", res.Answer, res.Warnings)
	if res.Transport.Source != "dom" || res.Content.Source != "dom" {
		t.Fatalf("transport %+v content %+v, want the page's text", res.Transport, res.Content)
	}
	for _, want := range []string{
		"this week ([Harbour Times](https://harbour.example/timetable)). The new pier",
		"opens in May ([Port Authority](https://port.example/pier)).",
		"That is the whole answer.",
	} {
		if !strings.Contains(res.Answer, want) {
			t.Fatalf("answer %q lacks %q", res.Answer, want)
		}
	}
	if strings.Contains(res.Answer, "+1") || strings.ContainsFunc(res.Answer, func(r rune) bool { return r >= '\ue200' && r <= '\ue206' }) {
		t.Fatalf("answer %q holds a pill's count or a citation sentinel", res.Answer)
	}
}

// TestTheSimulatedSearchStreamSendsReferencesAsTheSiteDoes holds the
// simulator to the site: a send with system_hints ["search"] streams
// citation spans whose content_references come as patches on the
// message's metadata, the first while the text still streams (so a
// decoder sees a closed span before its source), the rest, a hidden
// marker and a span without items among them, in the closing patch.
func TestTheSimulatedSearchStreamSendsReferencesAsTheSiteDoes(t *testing.T) {
	h := providertest.Shared(t)
	h.Server.Reset()
	prompt := "What changed at the harbour"
	body, _ := json.Marshal(map[string]any{"action": "next", "parent_message_id": "client-created-root", "model": "auto", "supported_encodings": []string{"v1"},
		"system_hints": []string{"search"},
		"messages":     []any{map[string]any{"id": "m-1", "author": map[string]any{"role": "user"}, "content": map[string]any{"content_type": "text", "parts": []string{prompt}}}}})
	req, _ := http.NewRequest("POST", sim.URL(sim.ChatGPT, "/backend-api/f/conversation"), bytes.NewReader(body))
	req.Header.Set("content-type", "application/json")
	req.Header.Set("authorization", "Bearer "+h.Server.AccessToken())
	req.AddCookie(h.Server.SessionCookie(sim.ChatGPT))
	resp, err := h.Server.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("HTTP %d, %v", resp.StatusCode, err)
	}
	d := chatgpt.NewDecoder()
	linkedEarly := false
	for _, ev := range strings.SplitAfter(string(raw), "\n\n") {
		_, _ = d.Write([]byte(ev))
		r := d.Result()
		if !strings.Contains(ev, `"o": "patch"`) && strings.Contains(r.Text, "[Harbour Times]") && !strings.Contains(r.Text, "whole answer") {
			linkedEarly = true
		}
	}
	r := d.Result()
	if !r.Complete || r.Text != searchAnswer(prompt) {
		t.Fatalf("stream result complete=%v text %q, want %q", r.Complete, r.Text, searchAnswer(prompt))
	}
	if !linkedEarly {
		t.Fatal("the first content_reference did not come while the text streamed")
	}
	for _, want := range []string{`"p": "/message/metadata/content_references", "o": "append"`, `"type": "hidden"`, `"type": "sources_footnote"`, `"is_search": true`} {
		if !strings.Contains(string(raw), want) {
			t.Fatalf("the stream lacks %s", want)
		}
	}
}
