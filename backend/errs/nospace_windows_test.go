package errs

import (
	"fmt"
	"io/fs"
	"testing"

	"golang.org/x/sys/windows"
)

func TestIsNoSpaceKnowsWindowsFullDisks(t *testing.T) {
	for _, code := range []error{windows.ERROR_DISK_FULL, windows.ERROR_HANDLE_DISK_FULL} {
		if err := fmt.Errorf("write: %w", &fs.PathError{Op: "write", Path: `C:\x`, Err: code}); !IsNoSpace(err) {
			t.Errorf("%v is not taken as a full disk", err)
		}
	}
	if IsNoSpace(&fs.PathError{Op: "write", Path: `C:\x`, Err: windows.ERROR_ACCESS_DENIED}) {
		t.Error("access denied is taken as a full disk")
	}
}
