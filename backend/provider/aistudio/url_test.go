package aistudio

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/site"
)

func TestNewChatURLKeepsTheAccountAndSetsTheModel(t *testing.T) {
	s, err := site.Builtin().Get(ID)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct{ name, current, want string }{
		{"a tab on the default account gets the plain new-chat address", "https://aistudio.google.com/prompts/abc", "https://aistudio.google.com/prompts/new_chat?model=gemini-flash-latest"},
		{"a tab on the second account stays on it", "https://aistudio.google.com/u/1/prompts/abc?model=x", "https://aistudio.google.com/u/1/prompts/new_chat?model=gemini-flash-latest"},
		{"a tab elsewhere does not lend its path", "https://example.com/u/3/x", "https://aistudio.google.com/prompts/new_chat?model=gemini-flash-latest"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := newChatURL(s, c.current, "gemini-flash-latest")
			if err != nil || got != c.want {
				t.Fatalf("newChatURL = %q, %v; want %q", got, err, c.want)
			}
		})
	}
	if got := modelParam("https://aistudio.google.com/prompts/new_chat?model=gemini-pro-latest"); got != "gemini-pro-latest" {
		t.Fatalf("modelParam = %q", got)
	}
}
