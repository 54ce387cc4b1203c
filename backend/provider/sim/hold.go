package sim

import "context"

// Holding an answer. A turn whose scenario has the param hold=NAME streams
// its answer up to the last piece and then holds still, its stop control
// and streaming marker on, until the test calls Release(NAME): an answer
// that goes on exactly as long as the test needs, where a long answer would
// make the test wait out whatever length it was given. Every turn naming
// the same hold waits on the same release; a released hold stays open.

// holds is the server's state for held answers: name -> closed on Release.
type holds map[string]chan struct{}

// Hold is the release of the hold named by sc's hold param, nil when it
// names none. A site's stream passes it to its Pause (Pause.Hold).
func (s *Server) Hold(sc Scenario) <-chan struct{} {
	name := sc.Param("hold", "")
	if name == "" {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.holdLocked(name)
}

func (s *Server) holdLocked(name string) chan struct{} {
	if s.held == nil {
		s.held = holds{}
	}
	ch, ok := s.held[name]
	if !ok {
		ch = make(chan struct{})
		s.held[name] = ch
	}
	return ch
}

// Release lets every answer held by hold=name, and every later one, end.
func (s *Server) Release(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	openHold(s.holdLocked(name))
}

// openHold releases a hold once; a released hold stays open.
func openHold(ch chan struct{}) {
	select {
	case <-ch:
	default:
		close(ch)
	}
}

// releaseHolds ends every hold and forgets them (Reset): nothing a test
// left held goes on holding, and the next test's holds start anew.
func (s *Server) releaseHolds() {
	for _, ch := range s.held {
		openHold(ch)
	}
	s.held = nil
}

// Wait holds a stream before its piece i of n: for p.For at the pause
// (Before), and before the last piece until p.Hold is released. It
// reports false when ctx ended first (the turn was stopped or cut).
func (p Pause) Wait(ctx context.Context, i, n int) bool {
	if i == p.Before && !Sleep(ctx, p.For) {
		return false
	}
	if p.Hold != nil && i == n-1 {
		select {
		case <-p.Hold:
		case <-ctx.Done():
			return false
		}
	}
	return true
}
