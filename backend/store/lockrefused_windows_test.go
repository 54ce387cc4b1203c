package store

import (
	"fmt"
	"testing"

	"golang.org/x/sys/windows"
)

// TestABadgerLockRefusalIsBusy: badger reports another opener's LOCK file
// in its own words with the system's error formatted in (not wrapped), and
// that is a busy directory, never a damaged store.
func TestABadgerLockRefusalIsBusy(t *testing.T) {
	for _, err := range []error{
		fmt.Errorf("Cannot create lock file %q.  Another process is using this Badger database error: %+v", `C:\x\LOCK`, windows.ERROR_SHARING_VIOLATION),
		fmt.Errorf("open: %w", windows.ERROR_SHARING_VIOLATION),
		fmt.Errorf("open: %w", windows.ERROR_LOCK_VIOLATION),
		fmt.Errorf(`read C:\x\MANIFEST: %s`, windows.ERROR_SHARING_VIOLATION.Error()),
	} {
		if !lockRefused(err) {
			t.Errorf("lockRefused(%q) = false, want true", err)
		}
	}
	if err := fmt.Errorf("manifest has bad magic"); lockRefused(err) {
		t.Errorf("lockRefused(%q) = true for a damaged store", err)
	}
}
