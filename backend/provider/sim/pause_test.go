package sim

import (
	"strings"
	"testing"
	"time"
)

func TestPausedChunks(t *testing.T) {
	sc := func(name string, kv ...string) Scenario {
		s := Scenario{Name: name, Params: map[string]string{}}
		for i := 0; i+1 < len(kv); i += 2 {
			s.Params[kv[i]] = kv[i+1]
		}
		return s
	}
	text := "I looked into it.\n\nThat is the whole answer."
	cases := []struct {
		name   string
		sc     Scenario
		text   string
		before string // the text sent before the pause ("-" for no pause)
		d      time.Duration
	}{
		{"stable_i holds after its lone I", sc(ScenarioStableI), text, "I", 2 * time.Second},
		{"the pause param sets how long", sc(ScenarioStableI, "pause", "300ms"), text, "I", 300 * time.Millisecond},
		{"pause_mid_answer holds at half", sc(ScenarioPauseMidAnswer), "abcdefghij", "abcde", 2 * time.Second},
		{"pause_mid_answer holds at the fraction at", sc(ScenarioPauseMidAnswer, "at", "0.2"), "abcdefghij", "ab", 2 * time.Second},
		{"tool_phase holds after its preamble", sc(ScenarioToolPhase), toolPreamble + "The answer.", toolPreamble, 2 * time.Second},
		{"thinking with a pause holds before the answer's first piece", sc(ScenarioThinking, "pause", "1s"), text, "", time.Second},
		{"thinking without a pause param streams straight", sc(ScenarioThinking), text, "-", 0},
		{"normal streams straight", sc(ScenarioNormal), text, "-", 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parts, p := PausedChunks(c.sc, c.text, 4)
			if got := strings.Join(parts, ""); got != c.text {
				t.Fatalf("pieces join to %q, want %q", got, c.text)
			}
			for _, part := range parts {
				if part == "" || len([]rune(part)) > 4 {
					t.Fatalf("piece %q is empty or longer than 4 runes", part)
				}
			}
			if c.before == "-" {
				if p.Before != -1 {
					t.Fatalf("a pause before piece %d, want none", p.Before)
				}
				return
			}
			if got := strings.Join(parts[:p.Before], ""); got != c.before || p.For != c.d {
				t.Fatalf("pause after %q for %s, want after %q for %s", got, p.For, c.before, c.d)
			}
		})
	}
}
