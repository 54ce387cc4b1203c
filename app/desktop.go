package app

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

// desktop is what the bound structs ask of the operating system beyond the
// core: the clipboard, the file manager and a save dialog. It is an
// interface because native dialogs would block a test under Xvfb forever;
// tests inject a recording fake.
type desktop interface {
	// CopyText puts text on the clipboard.
	CopyText(text string) error
	// Reveal shows path in the file manager. An error says that no file
	// manager answered.
	Reveal(path string) error
	// Open opens path in the application the desktop has for it (an
	// archive manager for a zip). An error says that none answered.
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

// runtimeDesktop is the real desktop of a running window.
type runtimeDesktop struct{ sh *shell }

// windowContext is the Wails context of the running window (the emitter
// holds it once OnStartup ran).
func (d runtimeDesktop) windowContext() (context.Context, error) {
	if re, ok := d.sh.emitter().(runtimeEmitter); ok {
		return re.ctx, nil
	}
	return nil, errs.New(errs.Internal, "the window has not started yet")
}

func (d runtimeDesktop) CopyText(text string) error {
	ctx, err := d.windowContext()
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
func (d runtimeDesktop) Reveal(path string) error { return opener.Reveal(path) }

// Open opens path in the desktop's application for it (opener.Open).
func (d runtimeDesktop) Open(path string) error { return opener.Open(path) }

func (d runtimeDesktop) SaveFile(title, defaultName string, data []byte) (string, error) {
	path, err := d.SavePath(title, defaultName)
	if err != nil || path == "" {
		return "", err
	}
	if err := writeFileAtomic(path, data); err != nil {
		return "", err
	}
	return path, nil
}

func (d runtimeDesktop) SavePath(title, defaultName string) (string, error) {
	ctx, err := d.windowContext()
	if err != nil {
		return "", err
	}
	path, err := wruntime.SaveFileDialog(ctx, wruntime.SaveDialogOptions{Title: title, DefaultFilename: defaultName})
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "show the save dialog: %v", err)
	}
	return path, nil
}

func (d runtimeDesktop) ChooseFolder(title string) (string, error) {
	ctx, err := d.windowContext()
	if err != nil {
		return "", err
	}
	path, err := wruntime.OpenDirectoryDialog(ctx, wruntime.OpenDialogOptions{Title: title, CanCreateDirectories: true})
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "show the folder dialog: %v", err)
	}
	return path, nil
}

// writeFileAtomic writes data to path through a synced temporary file in the
// same directory and a rename, so an interrupted save leaves no half file.
func writeFileAtomic(path string, data []byte) error {
	return copyFileAtomic(path, bytes.NewReader(data), nil)
}

// copyFileAtomic writes what src holds to path as writeFileAtomic does. When
// check is set it runs after the copy and before the rename: an error from
// it (the bytes were not what was expected) leaves path untouched.
func copyFileAtomic(path string, src io.Reader, check func() error) error {
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
