package app

import (
	"bufio"
	"errors"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

// markFiles sets File on each artifact of run that is no longer at its
// path: trashed when the desktop's trash (the Recycle Bin on Windows)
// holds a file moved from there, else missing. A verdict says what the zip was when saved; this says
// whether it is still there to use.
func markFiles(run *service.Run, getenv func(string) string) {
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

// inTrash reports whether the home trash (FreeDesktop.org Trash 1.0, as
// moveToTrash writes it) records a file moved from path.
func inTrash(path string, getenv func(string) string) bool {
	abs, err := filepath.Abs(path)
	if err != nil {
		return false
	}
	base := getenv("XDG_DATA_HOME")
	if base == "" {
		home := getenv("HOME")
		if home == "" {
			return false
		}
		base = filepath.Join(home, ".local", "share")
	}
	infos, err := filepath.Glob(filepath.Join(base, "Trash", "info", "*.trashinfo"))
	if err != nil {
		return false
	}
	for _, info := range infos {
		if trashInfoPath(info) == abs {
			return true
		}
	}
	return false
}

// trashInfoPath is the original path an info file records ("" when none).
func trashInfoPath(info string) string {
	f, err := os.Open(info)
	if err != nil {
		return ""
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Path="); ok {
			p, err := url.PathUnescape(v)
			if err != nil {
				return ""
			}
			return p
		}
	}
	return ""
}
