package redact

import (
	"strings"
	"testing"
)

func TestTextRemovesWhatMayBeASecretAndKeepsTheRest(t *testing.T) {
	cases := []struct {
		name, in   string
		gone, kept []string
		literals   []string
	}{
		{"a bearer token goes, the word stays", "Authorization: Bearer sk-live-abcdef1234567890",
			[]string{"sk-live-abcdef1234567890"}, []string{"Authorization"}, nil},
		{"a JSON web token goes", "token eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0In0.c2lnbmF0dXJl here",
			[]string{"eyJhbGciOiJIUzI1NiJ9", "c2lnbmF0dXJl"}, []string{"here"}, nil},
		{"a cookie pair goes, its name stays", "document.cookie = session_id=ab12cd34ef; theme=dark",
			[]string{"ab12cd34ef"}, []string{"session_id", "theme=dark"}, nil},
		{"an e-mail address goes", "Signed in as jane.doe@example.org (Pro)",
			[]string{"jane.doe@example.org"}, []string{"Signed in as", "(Pro)"}, nil},
		{"a signed address loses its query", `<a href="https://files.example.com/dl/a.zip?X-Amz-Signature=deadbeef&e=1">zip</a>`,
			[]string{"X-Amz-Signature", "deadbeef"}, []string{"https://files.example.com/dl/a.zip", ">zip</a>"}, nil},
		{"a long opaque token goes", "id 0123456789abcdef0123456789abcdef0123456789abcdef end",
			[]string{"0123456789abcdef0123456789abcdef"}, []string{"id ", " end"}, nil},
		{"the prompt goes, whole and line by line", "You: Tell me about my secret project Bluebird\nplan it",
			[]string{"secret project Bluebird"}, []string{"You:"}, Literals("Tell me about my secret project Bluebird\nplan it")},
		{"an address's path stays", "https://chatgpt.com/c/ff9b7918-b262-4827-819a-e1b0d240643e/more",
			nil, []string{"https://chatgpt.com/c/ff9b7918-b262-4827-819a-e1b0d240643e/more"}, nil},
		{"three words of the prompt in a row go, wherever they are quoted", "failed: send_unconfirmed: about Operation Wren, then nothing",
			[]string{"Operation Wren"}, []string{"failed: send_unconfirmed:", ", then nothing"}, Literals("Tell nobody about operation wren today")},
		{"two words of the prompt stay", "the Operation went fine",
			nil, []string{"the Operation went fine"}, Literals("Tell nobody about operation wren today")},
		{"a control's label stays", `<button aria-label="Send message" data-testid="send-button">Send</button>`,
			nil, []string{`aria-label="Send message"`, `data-testid="send-button"`, ">Send<"}, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := Text(tc.in, tc.literals...)
			for _, g := range tc.gone {
				if strings.Contains(got, g) {
					t.Errorf("Text(%q) = %q still holds %q", tc.in, got, g)
				}
			}
			for _, k := range tc.kept {
				if !strings.Contains(got, k) {
					t.Errorf("Text(%q) = %q lost %q", tc.in, got, k)
				}
			}
		})
	}
}
