//go:build !linux

package demo

import "time"

// adoptOrphans has no counterpart here: the demo removes its directory as
// soon as its window and simulator have ended.
func adoptOrphans() error { return nil }

// waitOrphans waits for nothing here (see adoptOrphans).
func waitOrphans(time.Duration) []int { return nil }
