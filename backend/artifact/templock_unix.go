//go:build unix

package artifact

import (
	"errors"
	"os"
	"syscall"
)

// lockTemp takes the writer's lock on the temporary file at path through a
// descriptor of its own (so the data file can be closed before the rename),
// waiting out a sweeper that is looking at it. errTempSwept: the sweeper
// removed it first.
func lockTemp(path string) (func(), error) {
	l, err := os.Open(path)
	if err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, errTempSwept
		}
		return nil, err
	}
	if err := flock(l, syscall.LOCK_EX); err != nil {
		l.Close()
		return nil, err
	}
	if !samePath(l, path) {
		l.Close()
		return nil, errTempSwept
	}
	return func() { l.Close() }, nil
}

// removeIfDead removes the temporary file at path when no writer holds its
// lock, and reports whether it did.
func removeIfDead(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	if err := flock(f, syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		return false // a live writer holds it (or it cannot be locked: leave it)
	}
	if st, err := f.Stat(); err != nil || !st.Mode().IsRegular() || !samePath(f, path) {
		return false
	}
	return os.Remove(path) == nil
}

func flock(f *os.File, how int) error {
	for {
		err := syscall.Flock(int(f.Fd()), how)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// samePath reports whether path still names the file f has open.
func samePath(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}
