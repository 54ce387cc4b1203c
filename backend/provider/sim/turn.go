package sim

import (
	"context"
	"net/http"
	"time"
)

// siteTurn is the shared front half of every non-ChatGPT send endpoint:
// pick the scenario, count the submission, refuse it under rate limit or
// usage cap. It returns ok=false when refuse wrote the response.
type siteTurn struct {
	site   string
	conv   string
	prompt string
	sc     Scenario
	a      answer
	pace   Pace
}

// refusal is how a site words a refused send.
type refusal struct {
	status int
	body   func(t siteTurn, until time.Time) string
	ctype  string
}

func (s *Server) beginTurn(w http.ResponseWriter, site, conv, prompt string, rate, usage refusal) (siteTurn, bool) {
	sc := s.turnScenario(site, conv, prompt)
	t := siteTurn{site: site, conv: conv, prompt: prompt, sc: sc, a: makeAnswer(site, sc, prompt), pace: s.paceFor(sc)}
	sub := Submission{Site: site, ConversationID: conv, Prompt: prompt, Scenario: sc.Name}
	until := s.lockedUntil(site)
	switch {
	case !until.IsZero() || sc.Name == ScenarioRateLimit:
		if until.IsZero() {
			until = time.Now().Add(sc.duration("lock", s.lockFor))
			s.lock(site, time.Until(until))
		}
		sub.Refused = true
		s.record(sub)
		w.Header().Set("Retry-After", retryAfter(until))
		w.Header().Set("Content-Type", rate.ctype)
		w.WriteHeader(rate.status)
		_, _ = w.Write([]byte(rate.body(t, until)))
		return t, false
	case sc.Name == ScenarioUsageCap:
		sub.Refused = true
		s.record(sub)
		reset := time.Now().Add(sc.duration("reset", 3*time.Hour))
		w.Header().Set("Content-Type", usage.ctype)
		w.WriteHeader(usage.status)
		_, _ = w.Write([]byte(usage.body(t, reset)))
		return t, false
	}
	s.record(sub)
	return t, true
}

// pieces streams text in paced chunks through emit, stopping at the cut
// point of stream_cut/error scenarios. It reports whether all was sent.
func (t siteTurn) pieces(ctx context.Context, text string, emit func(piece, soFar string)) bool {
	parts := chunks(text, t.pace.Chunk)
	cut := -1
	if t.sc.Name == ScenarioStreamCut || t.sc.Name == ScenarioError {
		cut = cutIndex(t.sc, len(parts))
	}
	so := ""
	for i, p := range parts {
		if i == cut {
			return false
		}
		so += p
		emit(p, so)
		if !sleep(ctx, t.pace.Interval) {
			return false
		}
	}
	return true
}
