//go:build dev

package desktop

import (
	"os"
	"path/filepath"
)

// devSaveDialogEnv, in the dev binary only, answers every save dialog with
// a file of that directory (the proposed name) instead of showing the GTK
// dialog, which would block a GUI test under Xvfb. The copy itself is the
// real one.
const devSaveDialogEnv = "FERRY_DEV_SAVE_DIALOG_DIR"

// WithDevDialogs returns d, or d with its save dialog answered from
// $FERRY_DEV_SAVE_DIALOG_DIR when that is set.
func WithDevDialogs(d Desktop) Desktop {
	if folder := os.Getenv(devFolderDialogEnv); folder != "" {
		d = scriptedFolder{Desktop: d, folder: folder}
	}
	dir := os.Getenv(devSaveDialogEnv)
	if dir == "" {
		return d
	}
	return scriptedSaves{Desktop: d, dir: dir}
}

type scriptedSaves struct {
	Desktop
	dir string
}

func (s scriptedSaves) SavePath(_, defaultName string) (string, error) {
	return filepath.Join(s.dir, filepath.Base(defaultName)), nil
}

func (s scriptedSaves) SaveFile(title, defaultName string, data []byte) (string, error) {
	p, _ := s.SavePath(title, defaultName)
	return p, WriteFileAtomic(p, data)
}

// devFolderDialogEnv, in the dev binary only, answers every folder dialog
// with that path instead of showing the GTK dialog.
const devFolderDialogEnv = "FERRY_DEV_FOLDER_DIALOG"

type scriptedFolder struct {
	Desktop
	folder string
}

func (s scriptedFolder) ChooseFolder(string) (string, error) { return s.folder, nil }
