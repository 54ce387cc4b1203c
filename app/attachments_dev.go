//go:build dev

package app

import (
	"os"
	"path/filepath"
)

// devOpenDialogEnv, in the dev binary only, answers every open dialog with
// the files it lists (separated as in $PATH) instead of showing the GTK
// dialog, which would block a GUI test under Xvfb.
const devOpenDialogEnv = "FERRY_DEV_OPEN_DIALOG_FILES"

// withDevPicker returns p, or a picker answering from
// $FERRY_DEV_OPEN_DIALOG_FILES when that is set.
func withDevPicker(p filePicker) filePicker {
	list := os.Getenv(devOpenDialogEnv)
	if list == "" {
		return p
	}
	return scriptedOpens(filepath.SplitList(list))
}

type scriptedOpens []string

func (s scriptedOpens) OpenFiles(string) ([]string, error) { return append([]string(nil), s...), nil }
