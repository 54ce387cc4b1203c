package trash

import (
	"errors"
	"io/fs"
	"os"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// MarkFiles sets File on each artifact of run that is no longer at its
// path: trashed when the desktop's trash (the Recycle Bin on Windows)
// holds a file moved from there, else missing. A verdict says what the zip was when saved; this says
// whether it is still there to use.
func MarkFiles(run *service.Run, getenv func(string) string) {
	if run == nil {
		return
	}
	for i := range run.Artifacts {
		a := &run.Artifacts[i]
		if a.Path == "" {
			continue
		}
		if _, err := os.Lstat(a.Path); err == nil || !errors.Is(err, fs.ErrNotExist) {
			continue
		}
		a.File = record.FileMissing
		if trashFor(getenv).Holds(a.Path) {
			a.File = record.FileTrashed
		}
	}
}
