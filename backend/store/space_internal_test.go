package store

import (
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeDisk counts statfs readings and reports a free space the test sets.
type fakeDisk struct {
	free  uint64
	reads int
}

func (d *fakeDisk) statfs(string) (uint64, error) { d.reads++; return d.free, nil }

func TestAFreeSpaceReadingIsReusedOnlyFarFromTheMarginAndForAShortWhile(t *testing.T) {
	cases := []struct {
		name      string
		free      uint64
		wait      time.Duration
		wantReads int
	}{
		{"far from the margin, writes in a burst share one reading", 10 * SpaceMargin, 0, 1},
		{"far from the margin, a reading older than spaceFresh is read again", 10 * SpaceMargin, spaceFresh, 3},
		{"within two margins of the limit, every write reads afresh", 2*SpaceMargin - 1, 0, 3},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := &fakeDisk{free: tc.free}
			g := spaceGuard{dir: "/d", statfs: d.statfs}
			for range 3 {
				if err := g.admit(1 << 10); err != nil {
					t.Fatal(err)
				}
				time.Sleep(tc.wait)
			}
			if d.reads != tc.wantReads {
				t.Fatalf("%d statfs readings for 3 writes, want %d", d.reads, tc.wantReads)
			}
		})
	}
}

func TestWritesAdmittedOnOneReadingNeverEatIntoTheSecondMargin(t *testing.T) {
	d := &fakeDisk{free: 2*SpaceMargin + 10<<20}
	g := spaceGuard{dir: "/d", statfs: d.statfs}
	for range 20 {
		if err := g.admit(1 << 20); err != nil {
			t.Fatal(err)
		}
	}
	// A reading with 10 MB beyond two margins admits 10 writes of 1 MB:
	// the 11th reads again.
	if d.reads != 2 {
		t.Fatalf("%d readings for 20 writes of 1 MB, want 2: a reading must admit no more than its room beyond two margins", d.reads)
	}
	d.free = SpaceMargin
	if err := g.admit(1); !errs.Has(err, errs.DiskFull) {
		t.Fatalf("a write past the margin: %v, want disk_full", err)
	}
}
