package trash

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The Recycle Bin through SHFileOperationW (shellapi.h): the pure parts,
// tested on every platform.
const (
	foDelete = 0x0003 // FO_DELETE

	fofSilent          = 0x0004 // FOF_SILENT: no progress window
	fofNoConfirmation  = 0x0010 // FOF_NOCONFIRMATION: no "are you sure"
	fofAllowUndo       = 0x0040 // FOF_ALLOWUNDO: to the Recycle Bin, restorable
	fofNoErrorUI       = 0x0400 // FOF_NOERRORUI: errors come back to Ferry
	fofWantNukeWarning = 0x4000 // FOF_WANTNUKEWARNING: ask before a delete the Bin cannot undo

	// recycleFlags move to the Recycle Bin without a word, except where the
	// file cannot go there (a network drive, a drive without a Bin): there
	// Windows asks rather than deleting it for good.
	recycleFlags = fofAllowUndo | fofNoConfirmation | fofNoErrorUI | fofSilent | fofWantNukeWarning
)

// doubleNulList is SHFileOperationW's pFrom: each path in UTF-16 ended by a
// NUL, and one more NUL after the last. A path with a NUL of its own would
// cut the list and is refused.
func doubleNulList(paths ...string) ([]uint16, error) {
	var out []uint16
	for _, p := range paths {
		if p == "" {
			return nil, fmt.Errorf("an empty path")
		}
		for _, r := range p {
			if r == 0 {
				return nil, fmt.Errorf("path %q holds a NUL", p)
			}
		}
		out = append(out, utf16.Encode([]rune(p))...)
		out = append(out, 0)
	}
	return append(out, 0), nil
}

// recycleResult turns SHFileOperationW's return value and its
// fAnyOperationsAborted into Ferry's answer for path: nil when the file
// went to the Recycle Bin, else errs.StoreIO naming the path, with a hint
// for the cause (the return values are the DE_* codes of shellapi.h's
// documentation or Win32 error codes).
func recycleResult(path string, code uint32, aborted bool) error {
	if code == 0 && !aborted {
		return nil
	}
	fail := func(why, hint string) error {
		return errs.New(errs.StoreIO, "move %s to the Recycle Bin: %s", path, why).
			WithEvidence("path", path).WithEvidence("shfileop", fmt.Sprintf("%#x", code)).WithHint("%s", hint)
	}
	switch {
	case code == 0 || code == 1223: // aborted, ERROR_CANCELLED
		return fail("it was cancelled, and the file stays where it was", "move it again, and answer Yes if Windows asks")
	case code == 2 || code == 3 || code == 0x7C: // FILE_NOT_FOUND, PATH_NOT_FOUND, DE_INVALIDFILES
		return fail("the file is not there any more", "refresh the list: it was moved or deleted outside Ferry")
	case code == 5 || code == 0x78: // ACCESS_DENIED, DE_ACCESSDENIEDSRC
		return fail("Windows denied access to it", "check the file's permissions in its Properties → Security, or delete it in Explorer")
	case code == 32 || code == 33: // SHARING_VIOLATION, LOCK_VIOLATION
		return fail("another program has it open", "close the program that has the file open (an archive manager, an antivirus scan), then move it again")
	case code == 0x79 || code == 206: // DE_PATHTOODEEP, FILENAME_EXCED_RANGE
		return fail("its path is too long for the Recycle Bin", "move or rename the folder to a shorter path, or delete the file in Explorer")
	}
	return fail(fmt.Sprintf("Windows answered %#x", code), "delete the file in Explorer; its path is shown beside it")
}

// recycleInfoPath is the original path a Recycle Bin $I file records, ""
// when b is not one: version 1 (Vista to 8) has a 24-byte header and the
// path in a 520-byte MAX_PATH field; version 2 (Windows 10 and later) has
// the header, the path's length in characters (with its NUL) and the path,
// both UTF-16.
func recycleInfoPath(b []byte) string {
	if len(b) < 24 {
		return ""
	}
	var units []uint16
	switch binary.LittleEndian.Uint64(b) {
	case 1:
		if len(b) < 24+520 {
			return ""
		}
		units = utf16Units(b[24 : 24+520])
	case 2:
		if len(b) < 28 {
			return ""
		}
		n := int(binary.LittleEndian.Uint32(b[24:28]))
		if n <= 0 || len(b) < 28+2*n {
			return ""
		}
		units = utf16Units(b[28 : 28+2*n])
	default:
		return ""
	}
	for i, u := range units {
		if u == 0 {
			units = units[:i]
			break
		}
	}
	return string(utf16.Decode(units))
}

func utf16Units(b []byte) []uint16 {
	out := make([]uint16, len(b)/2)
	for i := range out {
		out[i] = binary.LittleEndian.Uint16(b[2*i:])
	}
	return out
}
