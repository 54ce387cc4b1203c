package runs

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/site"
	"github.com/ferrydesk/ferry/backend/store"
)

func TestTabNamesSayWhatTheUserKnows(t *testing.T) {
	reg := site.Builtin()
	history := map[string]string{"chatgpt.com/c/abc": "How do chain ferries cross a river?"}
	for _, tc := range []struct {
		name string
		tab  errs.TabCandidate
		want string
	}{
		{"a tab titled by its conversation keeps its title", errs.TabCandidate{URL: "https://chatgpt.com/c/xyz", Title: "Night ferries"}, "Night ferries"},
		{"a tab titled only by its site is named by Ferry's history", errs.TabCandidate{URL: "https://chatgpt.com/c/abc", Title: "ChatGPT"}, "How do chain ferries cross a river?"},
		{"a tab titled by its address is named by Ferry's history", errs.TabCandidate{URL: "https://chatgpt.com/c/abc", Title: "chatgpt.com/c/abc"}, "How do chain ferries cross a river?"},
		{"a tab on the new-chat page is a new chat", errs.TabCandidate{URL: "https://chatgpt.com/", Title: "ChatGPT"}, "New chat"},
		{"a conversation Ferry never saw says so, without its id", errs.TabCandidate{URL: "https://chatgpt.com/c/0d1e2f", Title: ""}, "A ChatGPT conversation Ferry has no record of"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tabName(reg, tc.tab, history); got != tc.want {
				t.Errorf("tabName(%+v) = %q, want %q", tc.tab, got, tc.want)
			}
		})
	}
}

// TestATabIsNamedByItsConversationsFirstRun: two runs of one conversation
// in the same second have ids that sort either way; the name is the
// words of the run created first, whichever id sorts last.
func TestATabIsNamedByItsConversationsFirstRun(t *testing.T) {
	p := openTestPipeline(t, t.TempDir())
	conv := "https://chatgpt.com/c/0d1e2f"
	at := time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
	for _, s := range []job.Session{
		// The later run's id sorts first.
		{ID: "20261204-100000-000000", Site: "chatgpt", Prompt: "And on Sundays?", ConversationURL: conv, Created: at.Add(400 * time.Millisecond)},
		{ID: "20261204-100000-ffffff", Site: "chatgpt", Prompt: "Which ferries run at night?", ConversationURL: conv, Created: at.Add(100 * time.Millisecond)},
	} {
		raw, err := json.Marshal(&s)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.d.Store().Put(store.SessionKey(s.ID), raw); err != nil {
			t.Fatal(err)
		}
	}
	if got := p.conversationTitles()[conversationKey(conv)]; got != "Which ferries run at night?" {
		t.Fatalf("the conversation is titled %q, want its first run's words", got)
	}
}
