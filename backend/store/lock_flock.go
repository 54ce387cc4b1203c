//go:build !windows && !plan9 && !js && !wasip1 && !aix

package store

import (
	"errors"
	"fmt"
	"os"
	"syscall"

	"golang.org/x/sys/unix"

	"github.com/ferrydesk/ferry/backend/errs"
)

// canProbeLock is true: the flock badger takes can be probed without harm.
const canProbeLock = true

// dirLocked reports whether another open file description holds badger's
// flock on dir (badger locks the directory itself, exclusively, without
// waiting). It takes the lock for an instant and releases it, so it must not
// be called while this Store holds dir.
func dirLocked(dir string) (bool, error) {
	f, err := os.Open(dir)
	if err != nil {
		return false, fmt.Errorf("open store directory: %w", err)
	}
	defer f.Close()
	err = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	switch {
	case err == nil:
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		return false, nil
	case errors.Is(err, unix.EWOULDBLOCK):
		return true, nil
	}
	return false, fmt.Errorf("probe store lock: %w", err)
}

// processAlive reports whether pid names a running process (signal 0).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

// verifyUnheld runs Verify on dir while holding badger's flock on it, so
// that no other process writes the store during the check. It reports
// held=true, without verifying, when another process holds the lock.
func verifyUnheld(dir string) (v Verification, held bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return v, false, errs.Wrap(err, errs.DataDirUnwritable, "open store directory %s: %v", dir, rootCause(err)).WithEvidence("dir", dir)
	}
	defer f.Close()
	switch err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); {
	case errors.Is(err, unix.EWOULDBLOCK):
		return v, true, nil
	case err != nil:
		return v, false, errs.Wrap(err, errs.StoreIO, "probe store lock of %s: %v", dir, err).WithEvidence("dir", dir)
	}
	defer unix.Flock(int(f.Fd()), unix.LOCK_UN)
	v, err = Verify(dir)
	return v, false, err
}

// holdDir takes badger's flock on dir for a change that no opener may see
// half done (Restore's swap of directories). It reports held=true when
// another process holds it; release undoes it.
func holdDir(dir string) (release func(), held bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, fmt.Errorf("open store directory: %w", err)
	}
	switch err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB); {
	case errors.Is(err, unix.EWOULDBLOCK):
		f.Close()
		return nil, true, nil
	case err != nil:
		f.Close()
		return nil, false, fmt.Errorf("probe store lock: %w", err)
	}
	return func() {
		_ = unix.Flock(int(f.Fd()), unix.LOCK_UN)
		f.Close()
	}, false, nil
}
