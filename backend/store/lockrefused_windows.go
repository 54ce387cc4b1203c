package store

import (
	"errors"

	"golang.org/x/sys/windows"
)

// lockRefused reports whether badger's open failed because another opener
// holds its LOCK file: Windows refuses the second open of it with a sharing
// violation. That opener may not have written its OWNER sidecar yet, so
// dirLocked alone would miss it and call the store unreadable.
func lockRefused(err error) bool {
	return errors.Is(err, windows.ERROR_SHARING_VIOLATION) || errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}
