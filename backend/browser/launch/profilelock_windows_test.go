package launch

import (
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/errs"
)

// A profile whose lockfile is held the way Chromium holds it (open for
// writing, sharing reads) is in use; once it is let go, it is free.
func TestAProfileWhoseLockfileIsHeldIsInUse(t *testing.T) {
	dir := t.TempDir()
	if err := checkProfileFree(dir); err != nil {
		t.Fatalf("a profile without a lockfile: %v", err)
	}
	lock := filepath.Join(dir, "lockfile")
	name, _ := windows.UTF16PtrFromString(lock)
	h, err := windows.CreateFile(name, windows.GENERIC_WRITE, windows.FILE_SHARE_READ, nil, windows.CREATE_ALWAYS, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := checkProfileFree(dir); !errs.Has(err, errs.BrowserLaunchFailed) {
		windows.CloseHandle(h)
		t.Fatalf("a held lockfile: %v", err)
	}
	windows.CloseHandle(h)
	if _, err := os.Stat(lock); err != nil {
		t.Fatal(err)
	}
	if err := checkProfileFree(dir); err != nil {
		t.Fatalf("a lockfile left behind: %v", err)
	}
}
