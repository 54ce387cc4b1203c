package store

import (
	"fmt"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

// badger writes through memory-mapped files that it sizes with ftruncate and
// never allocates: a fresh store holds a 16 MB memtable log (2 ×
// memTableSize), a 32 MB value log (2 × valueLogFileSize) and a 1 MB discard
// file, and uses 28 KB of disk. A store write lands in a hole of one of those
// files, and when the disk has no block left for it the kernel answers with
// SIGBUS, which kills the process. Ferry therefore never lets badger write
// unless the disk has room for every hole it holds open plus what it writes
// in the background.
//
// SpaceMargin is that room: the free space every store write must leave,
// and that Open requires. Measured on tmpfs with this package's options
// (24 MB of 2 KB journal records, then 40 values of 1 MB): the memtable log
// grows to 6–8 MB before it rotates, each rotation flushes a level-0 table
// (up to the memtable's size) while the old log is still on disk, the value
// log grows to 16 MB before it rotates, and the disk use peaked at 9.7 MB for
// the small records and 49 MB with the large values. The margin covers the
// whole of the open holes (16 + 32 + 1 MB), one memtable flush (8 MB) and
// 7 MB for the manifest, the owner file and rounding: 64 MB.
const SpaceMargin = 3*memTableSize + 2*valueLogFileSize + 8<<20

// spaceFresh is how long a free-space reading may be reused. A reading is
// reused only while it also leaves a second whole margin after everything
// admitted since (see admit), so near the limit every write reads afresh.
const spaceFresh = 200 * time.Millisecond

// entryOverhead is counted per entry of a transaction, above its key and
// value: badger's entry header, checksum and value pointer.
const entryOverhead = 64

// flushNeed is the free space Close needs to flush the memtable into a
// level-0 table.
const flushNeed = memTableSize + 1<<20

// spaceGuard admits store writes while the disk holding dir has room for
// them and for SpaceMargin. It is safe for concurrent use.
type spaceGuard struct {
	dir    string
	statfs func(dir string) (uint64, error) // nil: freeSpace

	mu    sync.Mutex
	at    time.Time // when free was read; zero: never
	free  uint64    // bytes free for an unprivileged writer at at
	spent uint64    // bytes admitted since at
}

// admit reserves room for a write of n bytes, or returns an errs.DiskFull
// envelope when the disk holding the store has less than n + SpaceMargin
// free (an errs.StoreIO envelope when statfs itself fails).
//
// A reading of the free space is reused for at most spaceFresh, and only
// while it leaves n + 2 × SpaceMargin after every byte admitted since it was
// taken. A stale "ok" therefore lets a write into a hole only if other
// processes wrote more than a whole margin (64 MB) within 200 ms; when the
// disk is closer than two margins to the limit every write reads statfs
// afresh, which costs about a microsecond against the fsync of each commit.
// A fresh reading is the most any check can do: another process may still
// fill the disk between the reading and badger's write, and the margin is
// what stands between that and a SIGBUS.
func (g *spaceGuard) admit(n uint64) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	now := time.Now()
	if !g.at.IsZero() && now.Sub(g.at) < spaceFresh && g.free >= g.spent+n+2*SpaceMargin {
		g.spent += n
		return nil
	}
	read := g.statfs
	if read == nil {
		read = freeSpace
	}
	free, err := read(g.dir)
	if err != nil {
		g.at = time.Time{}
		return errs.Wrap(err, errs.StoreIO, "read the free space of %s: %v", g.dir, rootCause(err)).WithEvidence("dir", g.dir)
	}
	if free < n+SpaceMargin {
		g.at = time.Time{}
		return diskFullError(g.dir, free, n+SpaceMargin)
	}
	g.at, g.free, g.spent = now, free, n
	return nil
}

// closeSpace checks, before the first Close, that the disk has room for the
// memtable flush. Errors: errs.DiskFull; a failing statfs lets Close go on,
// as badger then reports what it finds.
func (s *Store) closeSpace() error {
	if s.db.IsClosed() {
		return nil
	}
	free, err := freeSpace(s.dir)
	if err != nil || free >= flushNeed {
		return nil
	}
	return diskFullError(s.dir, free, flushNeed).
		WithHint("free at least %s on the disk that holds %s, then close again; until then the store stays open and the history written so far is kept in its log", byteSize(flushNeed-free), s.dir)
}

// checkOpenSpace refuses to open the store in dir when its disk has less
// than SpaceMargin free: badger would open and then die of SIGBUS on the
// first write that finds no block. Errors: errs.DiskFull, errs.StoreIO.
func checkOpenSpace(dir string) error {
	return (&spaceGuard{dir: dir}).admit(0)
}

// txBytes is what admit reserves for a transaction whose keys and values
// add up to size bytes in entries entries: badger may write each twice (the
// memtable log, and the value log for a large value).
func txBytes(size, entries int) uint64 {
	return 2 * uint64(size+entries*entryOverhead)
}

// diskFullError is the envelope of a refused write.
func diskFullError(dir string, free, need uint64) *errs.Envelope {
	return errs.New(errs.DiskFull, "the disk holding %s has %s free; Ferry writes there only with %s free (nothing was written)",
		dir, byteSize(free), byteSize(need)).
		WithEvidence("dir", dir).
		WithEvidence("free_bytes", fmt.Sprint(free)).
		WithEvidence("needed_bytes", fmt.Sprint(need)).
		WithHint("free at least %s on the disk that holds %s (%s), or move the data directory to a larger disk with --data-dir or FERRY_DATA_DIR, then run again",
			byteSize(need-min(need, free)), dir, platform.FreeSpace(platform.GOOS, dir))
}

// isNoSpace reports whether err is the operating system's "no space left on
// device" (or a quota exceeded), in its unix or Windows form.
func isNoSpace(err error) bool { return errs.IsNoSpace(err) }

// byteSize shows n bytes in the largest unit that keeps one decimal.
func byteSize(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
