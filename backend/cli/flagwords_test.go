package cli

import (
	"strings"
	"testing"
)

// TestAskSaysTheRequestsRulesInFlagWords: the rules of a job's target are
// the request's own (service.JobRequest.Validate, written once), and the
// CLI says them in its flags' words.
func TestAskSaysTheRequestsRulesInFlagWords(t *testing.T) {
	for _, c := range []struct {
		name string
		args []string
		want []string
	}{
		{"no target", []string{"ask", "hello"}, []string{"--site", "--tab", "--session", "--conv"}},
		{"a new chat in a tab", []string{"ask", "--site", "chatgpt", "--new-chat", "--tab", "T1", "hello"}, []string{"--new-chat", "--tab"}},
		{"a follow-up in a tab", []string{"ask", "--session", "20261201-2130", "--tab", "T1", "hello"}, []string{"--session", "--tab"}},
		{"a cooldown of a second's fraction", []string{"ask", "--site", "chatgpt", "--cooldown", "1500ms", "hello"}, []string{"--cooldown"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := ferry(t, nil, c.args...)
			if r.code != 2 || !strings.Contains(r.stderr, "bad_input") {
				t.Fatalf("%v: %+v", c.args, r)
			}
			for _, w := range c.want {
				if !strings.Contains(r.stderr, w) {
					t.Errorf("%v: the error does not name %s:\n%s", c.args, w, r.stderr)
				}
			}
			for _, field := range []string{"newChat", "tabId", "sessionId", "cooldownSeconds"} {
				if strings.Contains(r.stderr, field) {
					t.Errorf("%v: the error names the field %s, not its flag:\n%s", c.args, field, r.stderr)
				}
			}
		})
	}
}
