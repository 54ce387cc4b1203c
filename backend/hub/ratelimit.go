package hub

import (
	"sync"
	"time"
)

// rateLimiter allows each key n events in any window (a sliding-window log:
// exact, and at most n timestamps per key).
type rateLimiter struct {
	mu     sync.Mutex
	n      int
	window time.Duration
	now    func() time.Time
	logs   map[string]*hitLog
}

type hitLog struct {
	times []time.Time // ring of the last n hits
	next  int         // where the next hit goes; the oldest hit once full
	full  bool
}

func newRateLimiter(n int, window time.Duration, now func() time.Time) *rateLimiter {
	return &rateLimiter{n: n, window: window, now: now, logs: map[string]*hitLog{}}
}

// allow records a hit for key and reports whether it is within the limit;
// when it is not, nothing is recorded and retryAfter says when the oldest
// hit leaves the window.
func (l *rateLimiter) allow(key string) (ok bool, retryAfter time.Duration) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := l.now()
	h := l.logs[key]
	if h == nil {
		h = &hitLog{times: make([]time.Time, l.n)}
		l.logs[key] = h
	}
	if h.full {
		oldest := h.times[h.next]
		if age := now.Sub(oldest); age < l.window {
			return false, l.window - age
		}
	}
	h.times[h.next] = now
	h.next++
	if h.next == l.n {
		h.next, h.full = 0, true
	}
	return true, 0
}

// forget drops a key's history (a revoked client).
func (l *rateLimiter) forget(key string) {
	l.mu.Lock()
	delete(l.logs, key)
	l.mu.Unlock()
}
