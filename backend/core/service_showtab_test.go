package core

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/browser"
)

func TestRunTabChoosesTheTabThatShowsTheConversation(t *testing.T) {
	conv := "https://chatgpt.com/c/abc"
	targets := []browser.Target{
		{ID: "A", URL: "https://chatgpt.com/"},
		{ID: "B", URL: "https://chatgpt.com/c/abc?model=x"},
		{ID: "C", URL: "https://chatgpt.com/c/abc/"},
	}
	cases := []struct {
		name      string
		own, conv string
		want      string
	}{
		{"the run's own tab while it shows the conversation", "C", conv, "C"},
		{"another tab on the conversation when the run's own went elsewhere", "A", conv, "B"},
		{"the run's own tab when the run has no conversation address", "A", "", "A"},
		{"none when the run's tab is gone and it has no address", "Z", "", ""},
		{"none when no tab shows the conversation", "A", "https://chatgpt.com/c/other", ""},
		{"the run's own tab while it still shows the new chat's transient address", "D", conv, "D"},
		{"not another tab on a transient address", "A", "https://chatgpt.com/c/other", ""},
	}
	targets = append(targets, browser.Target{ID: "D", URL: "https://chatgpt.com/c/WEB:1f2e"})
	transient := func(u string) bool { return strings.Contains(u, "/c/WEB:") }
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, ok := runTab(targets, c.own, c.conv, transient)
			if got.ID != c.want || ok != (c.want != "") {
				t.Errorf("runTab = %q, %v; want %q", got.ID, ok, c.want)
			}
		})
	}
}
