// Package domrule decides the end of an answer from the page alone, one
// poll at a time (provider.Web's wait when no stream tells it).
package domrule

import "time"

// The DOM rules' timing. A site marks a finished turn by positive signals:
// its finished-action bar under the turn (copy, feedback, read aloud), its
// stop control gone and its streaming marker (data-is-streaming,
// aria-busy, a loading class: the busy role) flipped off. Those are
// confirmed over FinishedSamples consecutive samples taken ConfirmEvery
// apart, the answer text the same in all of them, so that one frame of a
// re-render cannot end a turn. The quiet window is only the fallback for a
// page that never shows the bar (a drifted selector).
const (
	FinishedSamples = 3
	ConfirmEvery    = 40 * time.Millisecond
	QuietWindow     = 1200 * time.Millisecond

	FinishedReason = "dom:action_bar+stop_gone_x3"
	QuietReason    = "dom:stop_gone+quiet_1200ms"
)

// State is what one poll of the page shows of the turn after the last
// user turn.
type State struct {
	HasTurn  bool   // an assistant turn follows the last user turn
	Stop     bool   // a stop control is visible
	Busy     bool   // another busy marker is visible
	Finished bool   // a finished-action bar belongs to that turn
	Text     string // its answer text
}

// Rule decides the end of a turn from the page alone, one sample at a
// time. What it never takes for an end: text that merely stopped changing
// while the page still shows a stop control or a busy marker (a lone "I"
// before the model goes on, a thinking phase before the answer, a tool or
// code-interpreter phase between two parts of it), a finished bar beside a
// stop control, and an empty answer.
type Rule struct {
	confirmed  int    // consecutive samples showing the turn finished
	text       string // the answer text of those samples
	generating bool   // a stop control or busy marker was seen on this turn
}

// Sample takes one poll of the page and how long its answer text has been
// unchanged. It returns the completion reason once the turn is over, ""
// while it is not:
//   - FinishedReason: the turn's finished-action bar present, no stop
//     control, no busy marker and the same non-empty text in
//     FinishedSamples consecutive samples;
//   - QuietReason (the fallback): no finished bar, but the page was seen
//     generating on this turn and now shows neither a stop control nor a
//     busy marker, and the text has been unchanged for QuietWindow.
//
// Either way the caller checks the page for a notice (an error, a limit)
// before it takes the text for an answer.
func (r *Rule) Sample(st State, quiet time.Duration) string {
	if st.Stop || st.Busy {
		r.generating = true
	}
	over := st.HasTurn && !st.Stop && !st.Busy && st.Text != ""
	switch {
	case over && st.Finished && r.confirmed > 0 && st.Text == r.text:
		r.confirmed++
	case over && st.Finished:
		r.confirmed, r.text = 1, st.Text
	default:
		r.confirmed, r.text = 0, ""
	}
	switch {
	case r.confirmed >= FinishedSamples:
		return FinishedReason
	case over && !st.Finished && r.generating && quiet >= QuietWindow:
		return QuietReason
	}
	return ""
}

// Confirming reports whether the last sample showed the turn finished and
// more samples are needed to confirm it.
func (r *Rule) Confirming() bool { return r.confirmed > 0 && r.confirmed < FinishedSamples }

// Stalled reports a turn the quiet fallback cannot end: it shows neither
// its finished bar nor a stop control or busy marker, its text unchanged
// for QuietWindow, but the page was never seen generating on it (the
// failure came before the first look, as on a loaded machine) or it has
// no text. That is no end by itself; a notice of the turn's failure there
// is its outcome.
func (r *Rule) Stalled(st State, quiet time.Duration) bool {
	return st.HasTurn && !st.Stop && !st.Busy && !st.Finished && quiet >= QuietWindow && (!r.generating || st.Text == "")
}
