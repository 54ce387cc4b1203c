package tabs

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/site"
)

func TestDescribeTarget(t *testing.T) {
	reg := site.Builtin()
	tests := []struct {
		name, url   string
		site, conv  string
		state       Readiness
		wantMessage bool
	}{
		{"a ChatGPT conversation is probed with its conversation path", "https://chatgpt.com/c/abc-123?model=x#frag", "chatgpt", "c/abc-123", Ready, false},
		{"a site's start page is a new chat", "https://chatgpt.com/", "chatgpt", "", Ready, false},
		{"a page of no chat site is other", "https://example.org/c/1", "", "", Other, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := describeTarget(reg, browser.Target{ID: "T", URL: tc.url, Title: "x"})
			if got.Site != tc.site || got.Conversation != tc.conv || got.State != tc.state || (got.Message != "") != tc.wantMessage {
				t.Errorf("got %+v", got)
			}
			if got.URL != site.Redact(tc.url) {
				t.Errorf("url %q is not redacted", got.URL)
			}
		})
	}
	t.Run("a login page of a site is login, with what to do", func(t *testing.T) {
		for _, s := range reg.Sites() {
			for _, h := range s.LoginHosts {
				got := describeTarget(reg, browser.Target{ID: "T", URL: "https://" + h + "/login"})
				if got.State != NeedsLogin || got.Hint == "" {
					t.Errorf("%s login host %s: %+v", s.ID, h, got)
				}
				return
			}
		}
		t.Fatal("no built-in site has a login host to test with")
	})
}
