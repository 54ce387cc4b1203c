package wording

import "testing"

func TestWithSiteNames(t *testing.T) {
	prev := siteDisplay.Load()
	defer siteDisplay.Store(prev)
	siteDisplay.Store(&map[string]string{"chatgpt": "ChatGPT", "claude": "Claude", "aistudio": "Google AI Studio", "custom": "custom"})
	cases := map[string]string{
		"log in to chatgpt in the browser, then Retry": "log in to ChatGPT in the browser, then Retry",
		"claude refused the file.":                     "Claude refused the file.",
		"chatgpt: the composer is gone":                "ChatGPT: the composer is gone",
		"open https://chatgpt.com/ in a tab":           "open https://chatgpt.com/ in a tab",
		"the aistudio tab and claude-3 and /claude/x":  "the Google AI Studio tab and claude-3 and /claude/x",
		"chatgptx and xchatgpt stay":                   "chatgptx and xchatgpt stay",
		"claude.ai answered 403":                       "claude.ai answered 403",
		"custom stays custom":                          "custom stays custom",
	}
	for in, want := range cases {
		if got := withSiteNames(in); got != want {
			t.Errorf("withSiteNames(%q) = %q, want %q", in, got, want)
		}
	}
	if SiteName("claude") != "Claude" || SiteName("unknown") != "unknown" {
		t.Errorf("SiteName: %q %q", SiteName("claude"), SiteName("unknown"))
	}
}
