package mcp

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestEveryCodeTellsAnAgentWhatItCanDo(t *testing.T) {
	for _, spec := range errs.Catalog() {
		h, ok := agentHints[spec.Code]
		if !ok {
			t.Errorf("%s has no agent hint", spec.Code)
			continue
		}
		if errs.NamesCLI(h) {
			t.Errorf("%s's agent hint names a command or a flag: %q", spec.Code, h)
		}
		if got := forAgent(errs.New(spec.Code, "x")); got.RetryHint != h {
			t.Errorf("%s: the catalog's hint reached the agent as %q, want %q", spec.Code, got.RetryHint, h)
		}
	}
	for code := range agentHints {
		if _, ok := errs.Lookup(code); !ok {
			t.Errorf("agent hint for %s, which is not in the catalog", code)
		}
	}
}

func TestForAgent(t *testing.T) {
	t.Run("a hint naming a command gets the code's agent hint, and the envelope itself is kept", func(t *testing.T) {
		env := errs.New(errs.SendUnconfirmed, "sent?").WithHint("run `ferry reattach --session s1`")
		got := forAgent(env)
		if got.RetryHint != agentHints[errs.SendUnconfirmed] || env.RetryHint != "run `ferry reattach --session s1`" {
			t.Fatalf("got %q, the envelope's now %q", got.RetryHint, env.RetryHint)
		}
	})
	t.Run("a hint written for the case in an agent's words is kept", func(t *testing.T) {
		env := errs.New(errs.BadInput, "out_dir").WithHint("choose a directory inside /tmp/x")
		if got := forAgent(env); got != env {
			t.Fatalf("got %+v", got)
		}
	})
	t.Run("nil stays nil", func(t *testing.T) {
		if forAgent(nil) != nil {
			t.Fatal("not nil")
		}
	})
}
