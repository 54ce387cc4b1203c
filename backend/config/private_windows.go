//go:build windows

package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/platform"
)

// KeepFilesPrivate does nothing on Windows, which has no umask: what Ferry
// creates takes the access rules of the directory it is created in, and
// EnsureDataDir gives the data directory an owner-only ACL that everything
// created in it inherits.
func KeepFilesPrivate() {}

// fileAllAccess is FILE_ALL_ACCESS, "FA" in SDDL.
const fileAllAccess = 0x1f01ff

// ownerOnlySDDL is the protected DACL that grants the user with SID sid
// full access and nobody else any; a directory's ACE is inherited by the
// files (OI) and directories (CI) created in it.
func ownerOnlySDDL(sid string, dir bool) string {
	if dir {
		return "D:P(A;OICI;FA;;;" + sid + ")"
	}
	return "D:P(A;;FA;;;" + sid + ")"
}

// currentUser is the SID of the user this process runs as.
func currentUser() (*windows.SID, error) {
	u, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("read the current user: %w", err)
	}
	return u.User.Sid, nil
}

// MakePrivate gives path (a file or a directory) a protected DACL with one
// entry, the current user's full access: inherited entries (Users,
// Authenticated Users from the parent) are dropped, and a directory's entry
// is inherited by what is created in it. It changes nothing when path has
// that DACL already, so a large directory is not walked again, and
// nothing on a volume without access rules (FAT, exFAT).
func MakePrivate(path string) error {
	fi, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	if !keepsACLs(path) {
		return nil // FAT and exFAT: no per-user access rules to set
	}
	sid, err := currentUser()
	if err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	if ownerOnly(path, sid, fi.IsDir()) {
		return nil
	}
	sd, err := windows.SecurityDescriptorFromString(ownerOnlySDDL(sid.String(), fi.IsDir()))
	if err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	if err := windows.SetNamedSecurityInfo(path, windows.SE_FILE_OBJECT,
		windows.DACL_SECURITY_INFORMATION|windows.PROTECTED_DACL_SECURITY_INFORMATION, nil, nil, dacl, nil); err != nil {
		return fmt.Errorf("make %s private: %w", path, err)
	}
	return nil
}

// keepsACLs reports whether the volume holding path keeps access rules
// (NTFS, ReFS; not FAT or exFAT). When that cannot be told it answers yes,
// so that MakePrivate tries and reports its own error.
func keepsACLs(path string) bool {
	name, err := windows.UTF16PtrFromString(path)
	if err != nil {
		return true
	}
	root := make([]uint16, windows.MAX_PATH+1)
	if err := windows.GetVolumePathName(name, &root[0], uint32(len(root))); err != nil {
		return true
	}
	var flags uint32
	if err := windows.GetVolumeInformation(&root[0], nil, 0, nil, nil, &flags, nil, 0); err != nil {
		return true
	}
	return flags&windows.FILE_PERSISTENT_ACLS != 0
}

// ownerOnly reports whether path's DACL is already what MakePrivate sets.
func ownerOnly(path string, sid *windows.SID, dir bool) bool {
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return false
	}
	ctl, _, err := sd.Control()
	if err != nil || ctl&windows.SE_DACL_PROTECTED == 0 {
		return false
	}
	aces, err := allowedACEs(sd)
	if err != nil || len(aces) != 1 {
		return false
	}
	want := uint8(0)
	if dir {
		want = windows.OBJECT_INHERIT_ACE | windows.CONTAINER_INHERIT_ACE
	}
	a := aces[0]
	return a.sid.Equals(sid) && a.mask&fileAllAccess == fileAllAccess && a.flags&^windows.INHERITED_ACE == want
}

// ace is one access-allowed entry of a DACL.
type ace struct {
	sid   *windows.SID
	mask  windows.ACCESS_MASK
	flags uint8
}

// allowedACEs lists the access-allowed entries of sd's DACL (deny entries
// only take access away). A missing (NULL) DACL grants everyone all
// access: it is reported as an error.
func allowedACEs(sd *windows.SECURITY_DESCRIPTOR) ([]ace, error) {
	dacl, _, err := sd.DACL()
	if err != nil {
		return nil, err
	}
	if dacl == nil {
		return nil, errors.New("no DACL: everyone has access")
	}
	var out []ace
	for i := uint16(0); i < dacl.AceCount; i++ {
		var a *windows.ACCESS_ALLOWED_ACE
		if err := windows.GetAce(dacl, uint32(i), &a); err != nil {
			return nil, err
		}
		if a.Header.AceType != windows.ACCESS_ALLOWED_ACE_TYPE {
			continue
		}
		out = append(out, ace{sid: (*windows.SID)(unsafe.Pointer(&a.SidStart)), mask: a.Mask, flags: a.Header.AceFlags})
	}
	return out, nil
}

// CheckPrivate fails when path's DACL lets anyone read it but the current
// user, the system and the administrators (who can read every file
// anyway). A file on a volume without access rules (FAT, exFAT) passes, as
// on platforms without them. Errors: ErrNotPrivate (wrapped) naming the first other account,
// or the error of reading the DACL.
func CheckPrivate(path string) error {
	if platform.UnderWine() {
		// Wine (8.0) accepts a file's DACL and discards it: every file
		// reads back with Wine's default entries, Everyone's read among
		// them, whatever MakePrivate set. There the Unix file mode is the
		// only protection and the DACL says nothing about it.
		return nil
	}
	if !keepsACLs(path) {
		// FAT and exFAT (a USB stick as --data-dir) have no access rules:
		// every user of the machine can read every file there, and
		// refusing would only make such a data directory unusable.
		return nil
	}
	sid, err := currentUser()
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	sd, err := windows.GetNamedSecurityInfo(path, windows.SE_FILE_OBJECT, windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		return fmt.Errorf("check %s: %w", path, err)
	}
	aces, err := allowedACEs(sd)
	if err != nil {
		return fmt.Errorf("check %s: %v: %w", path, err, ErrNotPrivate)
	}
	for _, a := range aces {
		if a.flags&windows.INHERIT_ONLY_ACE != 0 {
			continue // applies to the children, not to path
		}
		if a.sid.Equals(sid) || a.sid.IsWellKnown(windows.WinLocalSystemSid) || a.sid.IsWellKnown(windows.WinBuiltinAdministratorsSid) {
			continue
		}
		return fmt.Errorf("%s grants access to %s: %w", path, a.sid.String(), ErrNotPrivate)
	}
	return nil
}

// replaceAttempts and replacePause bound ReplaceFile's retries: a virus
// scanner or the search indexer opens a file just written for a moment.
const (
	replaceAttempts = 10
	replacePause    = 50 * time.Millisecond
)

// ReplaceFile renames from over to atomically. It first asks for a POSIX
// rename (Windows 10 1809 and later on NTFS), which replaces to even while
// a reader holds it open sharing delete, the reader keeping the old
// content; where that is not available (older Windows, FAT, Wine) it
// renames as os.Rename does (MoveFileEx with MOVEFILE_REPLACE_EXISTING).
// While another process holds to open without FILE_SHARE_DELETE — a virus
// scanner, the indexer, a reader of the file — the rename fails with a
// sharing violation or access denied: it is tried again for about half a
// second before the error is returned.
func ReplaceFile(from, to string) error {
	var err error
	for i := 0; i < replaceAttempts; i++ {
		if posixRename(from, to) == nil {
			return nil
		}
		if err = os.Rename(from, to); err == nil || !transientReplaceError(err) {
			return err
		}
		if i == replaceAttempts-1 {
			break
		}
		if replaceRetried != nil {
			replaceRetried(err)
		}
		time.Sleep(replacePause)
	}
	return err
}

// replaceRetried, when set (by tests), is told of each rename ReplaceFile
// tries again.
var replaceRetried func(error)

// transientReplaceError reports whether a failed rename may succeed once
// another process lets go of the target.
func transientReplaceError(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION) ||
		errors.Is(err, windows.ERROR_LOCK_VIOLATION)
}

// protectDataDir gives the data directory the owner-only ACL that every
// file and directory Ferry creates in it inherits (the store, the browser
// profile with the sites' cookies, the hub file).
func protectDataDir(dir string) error { return MakePrivate(dir) }

// posixRename renames from over to with FILE_RENAME_FLAG_POSIX_SEMANTICS:
// the name to is freed at once even while it is open (sharing delete).
func posixRename(from, to string) error {
	absTo, err := filepath.Abs(to)
	if err != nil {
		return err
	}
	name, err := windows.UTF16PtrFromString(from)
	if err != nil {
		return err
	}
	target, err := windows.UTF16FromString(absTo)
	if err != nil {
		return err
	}
	h, err := windows.CreateFile(name, windows.DELETE|windows.SYNCHRONIZE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil,
		windows.OPEN_EXISTING, windows.FILE_FLAG_OPEN_REPARSE_POINT|windows.FILE_FLAG_BACKUP_SEMANTICS, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	// FILE_RENAME_INFO: Flags (DWORD), RootDirectory (HANDLE),
	// FileNameLength (DWORD, bytes, without the NUL), FileName.
	type renameInfo struct {
		Flags          uint32
		RootDirectory  windows.Handle
		FileNameLength uint32
		FileName       [1]uint16
	}
	nameBytes := (len(target) - 1) * 2
	size := int(unsafe.Offsetof(renameInfo{}.FileName)) + len(target)*2
	buf := make([]byte, size)
	info := (*renameInfo)(unsafe.Pointer(&buf[0]))
	info.Flags = windows.FILE_RENAME_REPLACE_IF_EXISTS | windows.FILE_RENAME_POSIX_SEMANTICS
	info.FileNameLength = uint32(nameBytes)
	copy(unsafe.Slice(&info.FileName[0], len(target)), target)
	return windows.SetFileInformationByHandle(h, windows.FileRenameInfoEx, &buf[0], uint32(size))
}
