package core

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/site"
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
