package trash

import (
	"os"
	"path/filepath"
	"strings"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/win32"
	"github.com/ferrydesk/ferry/backend/errs"
)

// trashFor is the Recycle Bin (the environment plays no part).
func trashFor(func(string) string) Can { return recycleBin{} }

var procSHFileOperationW = win32.Shell32.NewProc("SHFileOperationW")

// shFileOpStruct is SHFILEOPSTRUCTW with the natural alignment of 64-bit
// Windows (shellapi.h packs it to 1 byte only on 32-bit x86).
type shFileOpStruct struct {
	Hwnd                 uintptr
	Func                 uint32
	From                 *uint16
	To                   *uint16
	Flags                uint16
	AnyOperationsAborted int32
	NameMappings         uintptr
	ProgressTitle        *uint16
}

// recycleBin is Can through SHFileOperationW with FOF_ALLOWUNDO: the
// file goes to the Recycle Bin, where Explorer restores it.
type recycleBin struct{}

func (recycleBin) Trash(path string) error {
	abs, err := filepath.Abs(path) // the shell resolves relative paths against its own idea of the current directory
	if err != nil {
		return errs.Wrap(err, errs.StoreIO, "resolve %s: %v", path, err).WithEvidence("path", path)
	}
	if _, err := os.Lstat(abs); err != nil {
		// Checked first: the shell reports a missing file as a cancel on
		// some systems (Wine does).
		return recycleResult(abs, 2, false)
	}
	from, err := doubleNulList(abs)
	if err != nil {
		return errs.Wrap(err, errs.StoreIO, "move %s to the Recycle Bin: %v", abs, err).WithEvidence("path", abs)
	}
	op := shFileOpStruct{Func: foDelete, From: &from[0], Flags: recycleFlags}
	r, _, _ := procSHFileOperationW.Call(uintptr(win32.Pointer(&op)))
	return recycleResult(abs, uint32(r), op.AnyOperationsAborted != 0)
}

// Holds reports whether the Recycle Bin of path's drive holds a file moved
// from path: one of the user's $I files there records it.
func (recycleBin) Holds(path string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	vol := filepath.VolumeName(abs)
	tok := windows.GetCurrentProcessToken()
	user, err := tok.GetTokenUser()
	if vol == "" || err != nil {
		return false
	}
	infos, err := filepath.Glob(filepath.Join(vol+`\`, "$Recycle.Bin", user.User.Sid.String(), "$I*"))
	if err != nil {
		return false
	}
	for _, info := range infos {
		b, err := os.ReadFile(info)
		if err == nil && strings.EqualFold(recycleInfoPath(b), abs) {
			return true
		}
	}
	return false
}

var _ Can = recycleBin{}
