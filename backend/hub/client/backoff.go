package client

import (
	"math/rand/v2"
	"time"
)

// Backoff is the reconnect schedule: Min doubling per failed attempt up to
// Max, each delay spread by ±Jitter (a fraction) so that many clients of a
// restarted owner do not reconnect in step. At the cap the spread still
// applies, so a single wait may reach Max×(1+Jitter).
type Backoff struct {
	Min, Max time.Duration
	Jitter   float64
}

// DefaultBackoff is 1 s to 60 s with ±30 % jitter.
var DefaultBackoff = Backoff{Min: time.Second, Max: 60 * time.Second, Jitter: 0.3}

// Base is the delay before jitter for the attempt (0 for the first retry).
func (b Backoff) Base(attempt int) time.Duration {
	d := b.Min
	for i := 0; i < attempt && d < b.Max; i++ {
		d *= 2
	}
	return min(d, b.Max)
}

// Delay is the jittered delay for the attempt; u is a uniform number in
// [0, 1) (rand.Float64 in production, fixed values in tests).
func (b Backoff) Delay(attempt int, u float64) time.Duration {
	f := 1 + b.Jitter*(2*u-1)
	return time.Duration(float64(b.Base(attempt)) * f)
}

// Clock is the follower's notion of waiting, replaceable in tests.
type Clock interface {
	After(d time.Duration) <-chan time.Time
}

type realClock struct{}

func (realClock) After(d time.Duration) <-chan time.Time { return time.After(d) }

func defaultRand() float64 { return rand.Float64() }
