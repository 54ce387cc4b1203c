package config_test

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/platform"
)

// assertOwnerOnly fails unless path's DACL is protected and holds exactly
// one entry, the current user's full access (want, a Unix mode, says
// nothing here). Under Wine there is nothing to check: Wine (8.0) accepts a
// DACL and discards it, every file reading back with Wine's default
// entries; private_windows_test.go says so as a skipped test.
func assertOwnerOnly(t *testing.T, path string, _ os.FileMode) {
	t.Helper()
	if platform.UnderWine() {
		t.Logf("not checked under Wine, which keeps no DACLs: the access of %s", path)
		return
	}
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	ctl, _, _ := sd.Control()
	dacl, _, err := sd.DACL()
	if err != nil || dacl == nil || ctl&windows.SE_DACL_PROTECTED == 0 || dacl.AceCount != 1 {
		t.Fatalf("DACL of %s: %s (%v)", path, sd, err)
	}
	var ace *windows.ACCESS_ALLOWED_ACE
	if err := windows.GetAce(dacl, 0, &ace); err != nil {
		t.Fatal(err)
	}
	if sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart)); !sid.Equals(u.User.Sid) {
		t.Fatalf("DACL of %s: %s", path, sd)
	}
}

// openReader opens path for reading as a well-behaved Windows program
// does, sharing delete: one that does not (Go's os.Open, a virus scanner)
// keeps the file from being replaced until it lets go (ReplaceFile's
// tests).
func openReader(path string) (*os.File, error) {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return nil, err
	}
	h, err := windows.CreateFile(name, windows.GENERIC_READ,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.OPEN_EXISTING, 0, 0)
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	return os.NewFile(uintptr(h), path), nil
}

// unwritableDir is a directory this test cannot write in: on Windows one
// whose DACL lets the user only read; under Wine, which keeps no DACLs,
// Linux's /proc through Wine's Z: drive, where nobody creates a file.
func unwritableDir(t *testing.T) string {
	t.Helper()
	if platform.UnderWine() {
		return `Z:\proc`
	}
	dir := filepath.Join(t.TempDir(), "read-only")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	setDACL := func(sddl string) {
		sd, err := windows.SecurityDescriptorFromString(sddl)
		if err != nil {
			t.Fatal(err)
		}
		dacl, _, _ := sd.DACL()
		if err := windows.SetNamedSecurityInfo(dir, windows.SE_FILE_OBJECT,
			windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
			t.Fatal(err)
		}
	}
	setDACL("D:P(A;OICI;FR;;;" + u.User.Sid.String() + ")")
	t.Cleanup(func() { setDACL("D:P(A;OICI;FA;;;" + u.User.Sid.String() + ")") })
	return dir
}
