package sim

import (
	"fmt"
	"time"
	"unicode/utf8"
)

// toolPreamble is what the tool_phase answer says before its tool runs.
const toolPreamble = "Let me look that up.\n\n"

// stableIText is the stable_i answer: it opens with "I", the word a model
// often sends alone before it goes on.
func stableIText(prompt string) string {
	return fmt.Sprintf("I looked into “%s”.\n\nThe first word of this answer stood alone for a while before the rest came, as a model's first token often does.\n\nThat is the whole answer.", PromptTopic(prompt))
}

// Pause is a stretch of a turn in which the answer's text stops growing
// while the site is still generating: its stop control stays, its
// streaming marker stays on and its finished-action bar does not appear
// (the page's state follows the stream, which is simply quiet). Before is
// the index of the piece the pause comes before, -1 for none.
type Pause struct {
	Before int
	For    time.Duration
	Hold   <-chan struct{} // the turn's hold (Server.Hold), nil for none
}

// pauseAt is where the answer text of a turn under sc pauses, in runes
// sent before the pause, and for how long (param pause, default 2s):
// stable_i after its "I", pause_mid_answer at the fraction at (default
// 0.5), tool_phase after its preamble, and thinking, when given a pause
// param, between the thinking and the answer's first piece.
func pauseAt(sc Scenario, text string) (int, time.Duration, bool) {
	d := sc.Duration("pause", 2*time.Second)
	switch sc.Name {
	case ScenarioStableI:
		return 1, d, true
	case ScenarioPauseMidAnswer:
		return int(float64(utf8.RuneCountInString(text)) * min(max(sc.Float("at", 0.5), 0), 1)), d, true
	case ScenarioToolPhase:
		return utf8.RuneCountInString(toolPreamble), d, true
	case ScenarioThinking:
		if _, ok := sc.Params["pause"]; ok {
			return 0, d, true
		}
	}
	return 0, 0, false
}

// PausedChunks splits a turn's answer text into pieces of n runes as
// Chunks does, with a piece boundary at the scenario's pause (see Pause),
// and returns the pause. A stream sleeps p.For before sending
// parts[p.Before].
func PausedChunks(sc Scenario, text string, n int) (parts []string, p Pause) {
	at, d, ok := pauseAt(sc, text)
	if !ok || at >= utf8.RuneCountInString(text) {
		return Chunks(text, n), Pause{Before: -1}
	}
	head := string([]rune(text)[:at])
	parts = append(Chunks(head, n), Chunks(text[len(head):], n)...)
	return parts, Pause{Before: len(Chunks(head, n)), For: d}
}
