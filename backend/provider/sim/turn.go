package sim

import (
	"context"
	"net/http"
	"strconv"
	"time"
)

// Turn is one prompt a site's send endpoint received, as BeginTurn set it
// up: the scenario that answers it, the answer, and the pace to stream it.
type Turn struct {
	Site     string
	Conv     string // the site's conversation id, "" for a new one
	Prompt   string
	Scenario Scenario
	Answer   Answer
	Pace     Pace
	// rec is the turn in the site's transcript (nil when it keeps none),
	// which Pieces keeps up to date.
	rec *storedTurn
	tr  *transcript
	// hold is released by Server.Release (see Hold), nil for none.
	hold <-chan struct{}
}

// Refusal is how a site words a refused send: the status, content type and
// body of the response (until is when the lock or cap ends).
type Refusal struct {
	Status      int
	Body        func(t Turn, until time.Time) string
	ContentType string
}

// BeginTurn is the shared front half of a site's send endpoint: pick the
// scenario of the prompt, record the submission, and refuse it under the
// rate-limit lock (rate) or a usage cap (usage). ok is false when the
// refusal was written; the handler then returns.
func (s *Server) BeginTurn(w http.ResponseWriter, site, conv, prompt string, rate, usage Refusal) (Turn, bool) {
	sc := s.TurnScenario(site, conv, prompt)
	t := Turn{Site: site, Conv: conv, Prompt: prompt, Scenario: sc, Answer: AnswerFor(site, sc, prompt), Pace: s.PaceFor(sc), hold: s.Hold(sc)}
	sub := Submission{Site: site, ConversationID: conv, Prompt: prompt, Scenario: sc.Name}
	until := s.SendLockedUntil(site)
	switch {
	case !until.IsZero() || sc.Name == ScenarioRateLimit:
		if until.IsZero() {
			until = time.Now().Add(sc.Duration("lock", s.lockFor))
			s.Lock(site, time.Until(until))
		}
		sub.Refused = true
		s.Record(sub)
		w.Header().Set("Retry-After", RetryAfter(until))
		w.Header().Set("Content-Type", rate.ContentType)
		w.WriteHeader(rate.Status)
		_, _ = w.Write([]byte(rate.Body(t, until)))
		return t, false
	case sc.Name == ScenarioUsageCap || s.PageScenario(site).Name == ScenarioUsageCapOnLoad:
		sub.Refused = true
		s.Record(sub)
		reset := s.CapReset(site, sc)
		w.Header().Set("Content-Type", usage.ContentType)
		w.WriteHeader(usage.Status)
		_, _ = w.Write([]byte(usage.Body(t, reset)))
		return t, false
	}
	s.Record(sub)
	t.rec, t.tr = s.script.begin(t), &s.script
	return t, true
}

// CapReset is when the usage cap of site resets: the reset parameter of
// the usage_cap_on_load page scenario, else of the turn scenario sc
// (default 3 h from now).
func (s *Server) CapReset(site string, sc Scenario) time.Time {
	if ps := s.PageScenario(site); ps.Name == ScenarioUsageCapOnLoad {
		sc = ps
	}
	return time.Now().Add(sc.Duration("reset", 3*time.Hour)).Truncate(time.Second)
}

// Pieces streams text in paced chunks through emit, stopping at the cut
// point of stream_cut/error scenarios and, for the turn's answer text,
// holding still at the scenario's pause (see Pause). It reports whether
// all was sent.
func (t Turn) Pieces(ctx context.Context, text string, emit func(piece, soFar string)) bool {
	if text != t.Answer.Text || t.rec == nil {
		return t.pieces(ctx, text, emit)
	}
	so := ""
	all := t.pieces(ctx, text, func(p, s string) {
		so = s
		t.tr.update(t.rec, s, false, false, false)
		emit(p, s)
	})
	t.tr.update(t.rec, so, true, all, ctx.Err() != nil)
	return all
}

// pieces is Pieces without the transcript.
func (t Turn) pieces(ctx context.Context, text string, emit func(piece, soFar string)) bool {
	parts, pause := Chunks(text, t.Pace.Chunk), Pause{Before: -1}
	if text == t.Answer.Text {
		parts, pause = PausedChunks(t.Scenario, text, t.Pace.Chunk)
		pause.Hold = t.hold
	}
	cut := -1
	if t.Scenario.Name == ScenarioStreamCut || t.Scenario.Name == ScenarioError || t.Scenario.Name == ScenarioErrorInfo {
		cut = CutIndex(t.Scenario, len(parts))
	}
	so := ""
	for i, p := range parts {
		if i == cut {
			return false
		}
		if !pause.Wait(ctx, i, len(parts)) {
			return false
		}
		so += p
		emit(p, so)
		if !Sleep(ctx, t.Pace.Interval) {
			return false
		}
	}
	return true
}

// RetryAfter is the Retry-After header value for a lock that ends at until.
func RetryAfter(until time.Time) string {
	return strconv.Itoa(int(time.Until(until).Seconds()) + 1)
}
