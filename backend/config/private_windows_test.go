package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/platform"
)

// skipUnderWine skips a test that reads back a DACL: Wine (8.0) accepts a
// file's DACL and discards it (SetNamedSecurityInfo and SetSecurityInfo
// succeed, the DACL reads back as Wine's default, Everyone's read
// included), so there is nothing to read back. Windows keeps it.
func skipUnderWine(t *testing.T) {
	t.Helper()
	if platform.UnderWine() {
		t.Skip("Wine keeps no file DACLs (ntdll exports wine_get_version): this runs on Windows only")
	}
}

// daclOf returns path's DACL entries and whether the DACL is protected.
func daclOf(t *testing.T, path string) ([]ace, bool) {
	t.Helper()
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	ctl, _, err := sd.Control()
	if err != nil {
		t.Fatal(err)
	}
	aces, err := allowedACEs(sd)
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, _ := sd.DACL()
	if int(dacl.AceCount) != len(aces) {
		t.Fatalf("%s has entries that are not access-allowed: %s", path, sd)
	}
	return aces, ctl&windows.SE_DACL_PROTECTED != 0
}

func me(t *testing.T) *windows.SID {
	sid, err := currentUser()
	if err != nil {
		t.Fatal(err)
	}
	return sid
}

func TestMakePrivateLeavesOneEntryForTheUser(t *testing.T) {
	skipUnderWine(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "hub.json")
	if err := os.WriteFile(f, []byte("token"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := MakePrivate(f); err != nil {
		t.Fatal(err)
	}
	aces, protected := daclOf(t, f)
	if !protected || len(aces) != 1 || !aces[0].sid.Equals(me(t)) || aces[0].mask&fileAllAccess != fileAllAccess {
		t.Fatalf("DACL of %s: protected %t, %d entries %+v", f, protected, len(aces), aces)
	}
	if err := CheckPrivate(f); err != nil {
		t.Fatal(err)
	}
}

func TestAPrivateDirectoryPassesItsEntryOn(t *testing.T) {
	skipUnderWine(t)
	dir := filepath.Join(t.TempDir(), "Ferry")
	if err := (Paths{DataDir: dir}).EnsureDataDir(); err != nil {
		t.Fatal(err)
	}
	aces, protected := daclOf(t, dir)
	oici := uint8(windows.OBJECT_INHERIT_ACE | windows.CONTAINER_INHERIT_ACE)
	if !protected || len(aces) != 1 || !aces[0].sid.Equals(me(t)) || aces[0].flags != oici {
		t.Fatalf("DACL of %s: protected %t, %+v", dir, protected, aces)
	}
	// What Ferry creates in it later (the store, the profile, zips)
	// inherits that one entry and nothing else.
	sub := filepath.Join(dir, "db", "000001.vlog")
	if err := os.MkdirAll(filepath.Dir(sub), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(sub, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	aces, _ = daclOf(t, sub)
	if len(aces) != 1 || !aces[0].sid.Equals(me(t)) || aces[0].flags&windows.INHERITED_ACE == 0 {
		t.Fatalf("DACL of %s: %+v", sub, aces)
	}
	if err := CheckPrivate(sub); err != nil {
		t.Fatal(err)
	}
}

func TestCheckPrivateRefusesAFileEveryoneCanRead(t *testing.T) {
	skipUnderWine(t)
	f := filepath.Join(t.TempDir(), "hub.json")
	if err := os.WriteFile(f, []byte("token"), 0o600); err != nil {
		t.Fatal(err)
	}
	sd, err := windows.SecurityDescriptorFromString("D:P(A;;FA;;;" + me(t).String() + ")(A;;FR;;;WD)")
	if err != nil {
		t.Fatal(err)
	}
	dacl, _, _ := sd.DACL()
	if err := windows.SetNamedSecurityInfo(f, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivate(f); !errors.Is(err, ErrNotPrivate) {
		t.Fatalf("CheckPrivate of a file Everyone reads: %v", err)
	}
	if err := MakePrivate(f); err != nil {
		t.Fatal(err)
	}
	if err := CheckPrivate(f); err != nil {
		t.Fatalf("after MakePrivate: %v", err)
	}
}

func TestReplaceFileOutlastsAReaderThatLetsGo(t *testing.T) {
	dir := t.TempDir()
	target, next := filepath.Join(dir, "hub.json"), filepath.Join(dir, ".hub.tmp")
	for p, text := range map[string]string{target: "old", next: "new"} {
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// Go opens files without FILE_SHARE_DELETE, as a virus scanner
	// does: while this reader is open the target cannot be replaced.
	reader, err := os.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	retried := 0
	replaceRetried = func(err error) {
		retried++
		if !transientReplaceError(err) {
			t.Errorf("retried after %v", err)
		}
		reader.Close() // the scanner lets go
	}
	t.Cleanup(func() { replaceRetried = nil })
	if err := ReplaceFile(next, target); err != nil {
		t.Fatal(err)
	}
	if retried == 0 {
		t.Fatal("the first rename succeeded over an open reader: this test proves nothing")
	}
	if b, err := os.ReadFile(target); err != nil || string(b) != "new" {
		t.Fatalf("target holds %q, %v", b, err)
	}
	if _, err := os.Stat(next); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the temporary file is left: %v", err)
	}
}

func TestReplaceFileGivesUpOnAReaderThatStays(t *testing.T) {
	dir := t.TempDir()
	target, next := filepath.Join(dir, "settings.json"), filepath.Join(dir, ".settings.tmp")
	os.WriteFile(target, []byte("old"), 0o600)
	os.WriteFile(next, []byte("new"), 0o600)
	reader, err := os.Open(target)
	if err != nil {
		t.Fatal(err)
	}
	defer reader.Close()
	retried := 0
	replaceRetried = func(error) { retried++ }
	t.Cleanup(func() { replaceRetried = nil })
	err = ReplaceFile(next, target)
	if !transientReplaceError(err) || retried != replaceAttempts-1 {
		t.Fatalf("ReplaceFile: %v after %d retries", err, retried)
	}
	if b, _ := os.ReadFile(target); string(b) != "old" {
		t.Fatalf("target holds %q", b)
	}
}

// The volume of the test's temporary directory keeps access rules on
// Windows (NTFS) and under Wine alike, so MakePrivate acts there.
func TestTheTempVolumeKeepsACLs(t *testing.T) {
	if !keepsACLs(t.TempDir()) {
		t.Fatal("the temporary directory's volume reports no persistent ACLs")
	}
}
