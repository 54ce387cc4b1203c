package launch

import (
	"errors"
	"path/filepath"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/errs"
)

// checkProfileFree fails with BrowserLaunchFailed when another live browser
// process holds the profile. On Windows Chromium keeps <profile>\lockfile
// open for writing, sharing only reads, for as long as it runs (and the
// file goes when it closes): opening it without sharing fails then with a
// sharing violation. Chromium would otherwise hand the start over to that
// process and exit, and Ferry would wait for an endpoint that never comes.
// A lockfile left by a dead process opens and is Chromium's to clean up.
func checkProfileFree(dir string) error {
	name, err := windows.UTF16PtrFromString(filepath.Join(dir, "lockfile"))
	if err != nil {
		return nil
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ, 0, nil, windows.OPEN_EXISTING, windows.FILE_ATTRIBUTE_NORMAL, 0)
	if err == nil {
		windows.CloseHandle(h)
		return nil
	}
	if !errors.Is(err, windows.ERROR_SHARING_VIOLATION) {
		return nil
	}
	return errs.New(errs.BrowserLaunchFailed, "the browser profile %s is in use by another browser", dir).
		WithEvidence("profile", dir).WithEvidence("holder", "a running browser holds "+filepath.Join(dir, "lockfile")).
		WithHint("close the browser that uses Ferry's profile (or attach to it with --browser-url), then run again")
}
