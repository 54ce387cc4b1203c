// Package desktop is what the bound structs ask of the operating system
// beyond the core: the clipboard, the file manager, the save, folder and
// open dialogs (Runtime, through the window's Wails runtime), and the
// atomic write behind a save. The dev binary answers the dialogs from its
// environment (WithDevDialogs, WithDevPicker), so that GUI tests never
// block on one.
package desktop

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	wruntime "github.com/wailsapp/wails/v2/pkg/runtime"

	"github.com/ferrydesk/ferry/app/internal/opener"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Desktop is what the bound structs ask of the operating system beyond the
// core: the clipboard, the file manager and a save dialog. It is an
// interface because native dialogs would block a test under Xvfb forever;
// tests inject a recording fake.
type Desktop interface {
	// CopyText puts text on the clipboard.
	CopyText(text string) error
	// Reveal shows path in the file manager. An error says that no file
	// manager answered.
	Reveal(path string) error
	// Open opens path in the application the desktop has for it (an
	// archive manager for a zip, the image viewer for an image). An error
	// says that none answered.
	Open(path string) error
	// SaveFile asks where to save data (defaultName proposed) and writes it
	// there; it returns the chosen path, or "" when the user cancelled.
	SaveFile(title, defaultName string, data []byte) (string, error)
	// SavePath asks where to save a file (defaultName proposed) and returns
	// the chosen path without writing anything, or "" when the user
	// cancelled: for files too large to hold in memory.
	SavePath(title, defaultName string) (string, error)
	// ChooseFolder asks the user for a directory and returns its path, or
	// "" when the user cancelled.
	ChooseFolder(title string) (string, error)
}

// Runtime is the real desktop of a running window: its clipboard and
// dialogs are the Wails runtime's of the window whose context Window
// returns (an error before the window started).
type Runtime struct {
	Window func() (context.Context, error)
}

func (d Runtime) CopyText(text string) error {
	ctx, err := d.Window()
	if err != nil {
		return err
	}
	if err := wruntime.ClipboardSetText(ctx, text); err != nil {
		return errs.Wrap(err, errs.Internal, "copy to the clipboard: %v", err)
	}
	return nil
}

// Reveal shows path's folder in the file manager (opener.Reveal: xdg-open
// on the folder; explorer with the file selected on Windows).
func (d Runtime) Reveal(path string) error { return opener.Reveal(path) }

// Open opens path in the desktop's application for it (opener.Open).
func (d Runtime) Open(path string) error { return opener.Open(path) }

func (d Runtime) SaveFile(title, defaultName string, data []byte) (string, error) {
	path, err := d.SavePath(title, defaultName)
	if err != nil || path == "" {
		return "", err
	}
	if err := WriteFileAtomic(path, data); err != nil {
		return "", err
	}
	return path, nil
}

func (d Runtime) SavePath(title, defaultName string) (string, error) {
	ctx, err := d.Window()
	if err != nil {
		return "", err
	}
	path, err := wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName})
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "show the save dialog: %v", err)
	}
	return path, nil
}

func (d Runtime) ChooseFolder(title string) (string, error) {
	ctx, err := d.Window()
	if err != nil {
		return "", err
	}
	path, err := wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "show the folder dialog: %v", err)
	}
	return path, nil
}

// WriteFileAtomic writes data to path through a synced temporary file in the
// same directory and a rename, so an interrupted save leaves no half file.
func WriteFileAtomic(path string, data []byte) error {
	return CopyFileAtomic(path, bytes.NewReader(data), nil)
}

// CopyFileAtomic writes what src holds to path as WriteFileAtomic does. When
// check is set it runs after the copy and before the rename: an error from
// it (the bytes were not what was expected) leaves path untouched.
func CopyFileAtomic(path string, src io.Reader, check func() error) error {
	fail := func(err error) error {
		return errs.Wrap(err, errs.BadInput, "save %s: %v", path, err).WithHint("choose a folder you can write to")
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.part")
	if err != nil {
		return fail(err)
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, src); err != nil {
		tmp.Close()
		return fail(err)
	}
	if check != nil {
		if err := check(); err != nil {
			tmp.Close()
			return err
		}
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return fail(err)
	}
	if err := tmp.Close(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return fail(fmt.Errorf("rename: %w", err))
	}
	return nil
}

// FilePicker asks the user for files. It is an interface because the
// native dialog would block a test under Xvfb forever; tests inject a
// fake, the dev binary a scripted one (picker_dev.go).
type FilePicker interface {
	// OpenFiles shows an open dialog in which several files may be
	// chosen and returns their absolute paths; none when the user
	// cancelled.
	OpenFiles(title string) ([]string, error)
}

// OpenFiles implements FilePicker with the window's own dialog.
func (d Runtime) OpenFiles(title string) ([]string, error) {
	ctx, err := d.Window()
	if err != nil {
		return nil, err
	}
	paths, err := wruntime.OpenMultipleFilesDialog(ctx, wruntime.OpenDialogOptions{Title: title})
	if err != nil {
		return nil, errs.Wrap(err, errs.Internal, "show the open dialog: %v", err)
	}
	return paths, nil
}
