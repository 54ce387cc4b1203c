package sim_test

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/provider/sim/simtest"
)

// Tests stream fast (200 runes every 2 ms) unless a directive slows a turn.
func TestMain(m *testing.M) {
	simtest.Main(m, sim.WithPace(200, 2*time.Millisecond), sim.WithRateLimitLock(4*time.Second))
}
