//go:build dev

package desktop

import (
	"os"
	"path/filepath"
)

// devOpenDialogEnv, in the dev binary only, answers every open dialog with
// the files it lists (separated as in $PATH) instead of showing the GTK
// dialog, which would block a GUI test under Xvfb.
const devOpenDialogEnv = "FERRY_DEV_OPEN_DIALOG_FILES"

// WithDevPicker returns p, or a picker answering from
// $FERRY_DEV_OPEN_DIALOG_FILES when that is set.
func WithDevPicker(p FilePicker) FilePicker {
	list := os.Getenv(devOpenDialogEnv)
	if list == "" {
		return p
	}
	return scriptedOpens(filepath.SplitList(list))
}

type scriptedOpens []string

func (s scriptedOpens) OpenFiles(string) ([]string, error) { return append([]string(nil), s...), nil }
