package hubfile_test

import (
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/platform"
)

// assertOwnerOnly fails unless path's DACL is protected and holds exactly
// one entry: the current user's full access (not checked under Wine).
func assertOwnerOnly(t *testing.T, path string) {
	t.Helper()
	if platform.UnderWine() {
		// Wine (8.0) accepts a DACL and discards it: every file reads
		// back with Wine's default entries (Everyone's read among them).
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
	sid := (*windows.SID)(unsafe.Pointer(&ace.SidStart))
	if ace.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE || !sid.Equals(u.User.Sid) || ace.Mask&0x1f01ff != 0x1f01ff {
		t.Fatalf("DACL of %s: %s", path, sd)
	}
}

// exposeToOthers adds an entry letting Everyone read path.
func exposeToOthers(t *testing.T, path string) {
	t.Helper()
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		t.Fatal(err)
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;FA;;;" + u.User.Sid.String() + ")(A;;FR;;;WD)")
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		t.Fatal(err)
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
}
