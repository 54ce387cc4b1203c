package store

import (
	"errors"
	"strings"

	"golang.org/x/sys/windows"
)

// lockRefused reports whether badger's open failed because another opener
// holds its LOCK file: Windows refuses the second open of it with a sharing
// violation. That opener may not have written its OWNER sidecar yet, so
// dirLocked alone would miss it and call the store unreadable.
//
// badger formats the system's error into its own message rather than
// wrapping it, so the violation is found by badger's words as well (they
// say the lock file is another's) and by the system's own text of it (an
// opener that read the MANIFEST while another wrote it: "read …\MANIFEST:
// Sharing violation." under Wine).
func lockRefused(err error) bool {
	msg := err.Error()
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION) ||
		strings.Contains(msg, badgerLockHeld) || strings.Contains(msg, windows.ERROR_SHARING_VIOLATION.Error())
}

// badgerLockHeld is what badger's message says when it cannot create its
// lock file (dir_windows.go: "Cannot create lock file %q.  Another process
// is using this Badger database").
const badgerLockHeld = "Another process is using this Badger database"
