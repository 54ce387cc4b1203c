package app

import (
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
)

// systemTrash is the Recycle Bin.
func systemTrash() trashCan { return recycleBin{} }

var procSHFileOperationW = shell32.NewProc("SHFileOperationW")

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

// recycleBin is trashCan through SHFileOperationW with FOF_ALLOWUNDO: the
// file goes to the Recycle Bin, where Explorer restores it.
type recycleBin struct{}

func (recycleBin) Trash(path string) error {
	abs, err := filepath.Abs(path) // the shell resolves relative paths against its own idea of the current directory
	if err != nil {
		return errs.Wrap(err, errs.StoreIO, "resolve %s: %v", path, err).WithEvidence("path", path)
	}
	from, err := doubleNulList(abs)
	if err != nil {
		return errs.Wrap(err, errs.StoreIO, "move %s to the Recycle Bin: %v", abs, err).WithEvidence("path", abs)
	}
	op := shFileOpStruct{Func: foDelete, From: &from[0], Flags: recycleFlags}
	r, _, _ := procSHFileOperationW.Call(uintptr(unsafePointer(&op)))
	return recycleResult(abs, uint32(r), op.AnyOperationsAborted != 0)
}

var _ trashCan = recycleBin{}
