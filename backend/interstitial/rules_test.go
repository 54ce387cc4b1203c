package interstitial

import (
	"regexp"
	"slices"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestTheRuleRegistry(t *testing.T) {
	panics := func(t *testing.T, r Rule) {
		t.Helper()
		defer func() {
			if recover() == nil {
				t.Fatalf("Register(%+v) did not panic", r)
			}
		}()
		Register(r)
	}
	busy := Result{Kind: ServerBusy, Code: errs.GenerationError}
	t.Run("a duplicate id panics", func(t *testing.T) {
		panics(t, Rule{ID: "deepseek/server-busy", Notice: regexp.MustCompile(`x`), Verdict: busy})
	})
	t.Run("a rule without a sign panics", func(t *testing.T) {
		panics(t, Rule{ID: "test/no-sign", Verdict: busy})
	})
	t.Run("a rule with two signs panics", func(t *testing.T) {
		panics(t, Rule{ID: "test/two-signs", Host: "example.com", Notice: regexp.MustCompile(`x`), Verdict: busy})
	})
	t.Run("a rule without a kind panics", func(t *testing.T) {
		panics(t, Rule{ID: "test/no-kind", Notice: regexp.MustCompile(`x`)})
	})
	t.Run("the sites' rules are listed in sorted order", func(t *testing.T) {
		ids := RuleIDs()
		if !slices.IsSorted(ids) {
			t.Fatalf("ids = %v", ids)
		}
		for _, want := range []string{"chatgpt/login-host", "claude/tool-use-limit", "deepseek/server-busy", "gemini/apology-answer", "grok/heavy-usage"} {
			if !slices.Contains(ids, want) {
				t.Fatalf("ids = %v, want %s among them", ids, want)
			}
		}
	})
}

func TestASiteRuleNeverHidesAHarderStop(t *testing.T) {
	// A busy-server notice beside a rate-limit notice: the rate limit is
	// the harder stop and comes first whatever the sites registered.
	s := chatPage()
	s.ErrorTexts = []string{"The server is busy. Please try again later."}
	s.Dialogs = []string{"Too many requests"}
	if r := Detect(s); r.Kind != RateLimit {
		t.Fatalf("Detect = %+v, want the rate limit", r)
	}
	s.Dialogs = nil
	if r := Detect(s); r.Kind != ServerBusy || r.Action != "Retry" || r.Evidence["signal"] != "notice" {
		t.Fatalf("Detect = %+v, want DeepSeek's busy server from its notice", r)
	}
}
