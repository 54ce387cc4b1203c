package chatgpt

import "testing"

func TestConversationIDOfReadsTheAddress(t *testing.T) {
	cases := []struct{ name, url, want string }{
		{"a conversation address names its id", "https://chatgpt.com/c/6a1f-22", "6a1f-22"},
		{"a project's conversation names its id", "https://chatgpt.com/g/g-p-abc/c/6a1f-22?model=x", "6a1f-22"},
		{"the start page names none", "https://chatgpt.com/", ""},
		{"a bare /c/ names none", "https://chatgpt.com/c/", ""},
		{"a new chat's transient WEB: address names none", "https://chatgpt.com/c/WEB:3f2a9c1e-7b1d-4c55-9a0e-1d2f3a4b5c6d", ""},
		{"a new chat's transient local address names none", "https://chatgpt.com/c/local-chatgpt%3A3f2a9c1e7b1d", ""},
		{"the id ends at a slash", "https://chatgpt.com/c/6a1f-22/", "6a1f-22"},
		{"an address that does not parse names none", "://", ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := conversationIDOf(tc.url); got != tc.want {
				t.Fatalf("conversationIDOf(%q) = %q, want %q", tc.url, got, tc.want)
			}
		})
	}
}

func TestCleanAnswerRemovesCitationsWhateverReadTheText(t *testing.T) {
	in := "Documented\ue200cite\ue202turn0search1\ue201:\n\n```python\nprint(1)\n```\n\nDone.\ue200cite\ue202turn0search3\ue201"
	if got, want := cleanAnswer(in), "Documented:\n\n```python\nprint(1)\n```\n\nDone."; got != want {
		t.Fatalf("cleanAnswer = %q, want %q", got, want)
	}
}
