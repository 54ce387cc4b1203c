package artifact

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Temporary files of a save are self-identifying as dead: their writer
// holds an exclusive lock on each while it exists (an flock, which the
// kernel drops when the process dies, even by SIGKILL), so any later save
// into the same directory can remove the ones nobody holds without ever
// touching a live writer's. Where the platform has no such lock nothing is
// swept.

// tempPatterns are the names of the temporary files Save and
// WriteFileAtomic leave behind when their process is killed.
var tempPatterns = []string{".ferry-*.zip.part", ".ferry-*.img.part", ".ferry-*.tmp"}

// errTempSwept says a new temporary file was removed by a sweeper between
// its creation and its lock: the caller creates another.
var errTempSwept = errors.New("temporary file removed before it was locked")

// createLockedTemp creates a temporary file in dir named after pattern and
// locks it. Release the lock (after the file was renamed or removed) with
// the returned function; closing the file does not release it.
func createLockedTemp(dir, pattern string) (*os.File, func(), error) {
	for range 8 {
		f, err := os.CreateTemp(dir, pattern)
		if err != nil {
			return nil, nil, err
		}
		release, err := lockTemp(f.Name())
		if errors.Is(err, errTempSwept) {
			f.Close()
			continue
		}
		if err != nil {
			f.Close()
			os.Remove(f.Name())
			return nil, nil, err
		}
		return f, release, nil
	}
	return nil, nil, fmt.Errorf("create temporary file in %s: %w", dir, errTempSwept)
}

// SweepDeadTemps removes from dir, and from its quarantine subdirectory,
// the temporary files of Ferry saves whose writer is gone (a process
// killed mid-download), and returns their paths. A file whose writer still
// holds it is never touched. Errors: only a directory that cannot be
// listed; a file that cannot be removed is left for the next sweep.
func SweepDeadTemps(dir string) ([]string, error) {
	var removed []string
	for _, d := range []string{dir, filepath.Join(dir, QuarantineDir)} {
		for _, pat := range tempPatterns {
			paths, err := filepath.Glob(filepath.Join(d, pat))
			if err != nil {
				return removed, fmt.Errorf("list temporary files in %s: %w", d, err)
			}
			for _, p := range paths {
				if removeIfDead(p) {
					removed = append(removed, p)
				}
			}
		}
	}
	return removed, nil
}
