//go:build windows || plan9 || js || wasip1 || aix

package store

import "github.com/ferrydesk/ferry/backend/proctree"

// canProbeLock is false: badger's lock here cannot be probed without taking
// it the way badger does, so Open asks badger first.
const canProbeLock = false

// dirLocked is asked only after badger refused to open dir; it reports a
// held lock when an OWNER sidecar exists (Close removes it).
func dirLocked(dir string) (bool, error) {
	_, err := ReadOwner(dir)
	return err == nil, nil
}

// processAlive reports whether pid may still run (proctree.Alive), so that
// the OWNER sidecar of a process that crashed names no holder.
func processAlive(pid int) bool { return proctree.Alive(pid) }

// verifyUnheld runs Verify on dir. The lock cannot be held here without
// taking it the way badger does, so a store being compacted by another
// process at that instant can be reported damaged; badger then refuses the
// second opener anyway.
func verifyUnheld(dir string) (v Verification, held bool, err error) {
	v, err = Verify(dir)
	return v, false, err
}

// holdDir reports held=true when an OWNER sidecar names a holder; nothing
// is locked here.
func holdDir(dir string) (release func(), held bool, err error) {
	if locked, _ := dirLocked(dir); locked {
		return nil, true, nil
	}
	return func() {}, false, nil
}
