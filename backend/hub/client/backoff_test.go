package client_test

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/hub/client"
)

func TestBackoffDoublesFromOneSecondToSixty(t *testing.T) {
	b := client.DefaultBackoff
	want := []time.Duration{1, 2, 4, 8, 16, 32, 60, 60, 60}
	for attempt, w := range want {
		if got := b.Base(attempt); got != w*time.Second {
			t.Errorf("attempt %d: base %s, want %s", attempt, got, w*time.Second)
		}
		if got := b.Delay(attempt, 0.5); got != w*time.Second {
			t.Errorf("attempt %d: unjittered delay %s, want %s", attempt, got, w*time.Second)
		}
	}
	if got := b.Base(1000); got != 60*time.Second {
		t.Fatalf("a huge attempt count gives %s", got)
	}
}

func TestJitterStaysWithinThirtyPercentAndSpreads(t *testing.T) {
	b := client.DefaultBackoff
	for attempt := 0; attempt < 8; attempt++ {
		base := b.Base(attempt)
		lo, hi := time.Duration(float64(base)*0.7), time.Duration(float64(base)*1.3)
		if got := b.Delay(attempt, 0); got != lo {
			t.Errorf("attempt %d, u=0: %s, want %s", attempt, got, lo)
		}
		if got := b.Delay(attempt, 0.999999); got > hi || got < hi-time.Millisecond {
			t.Errorf("attempt %d, u→1: %s, want just under %s", attempt, got, hi)
		}
		r := rand.New(rand.NewPCG(1, uint64(attempt)))
		seen := map[time.Duration]bool{}
		for i := 0; i < 1000; i++ {
			d := b.Delay(attempt, r.Float64())
			if d < lo || d > hi {
				t.Fatalf("attempt %d: %s outside [%s, %s]", attempt, d, lo, hi)
			}
			seen[d/(base/100)] = true
		}
		if len(seen) < 40 {
			t.Errorf("attempt %d: only %d distinct delays in 1000: the jitter does not spread", attempt, len(seen))
		}
	}
}
