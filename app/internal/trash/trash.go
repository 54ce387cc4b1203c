// Package trash moves files to the desktop's trash, where a file manager
// can restore them (the FreeDesktop.org home trash; the Recycle Bin on
// Windows), and tells whether it holds a file moved from a path: a run's
// saved files read back as trashed or missing (MarkFiles).
package trash

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Can moves a file where the desktop can restore it from.
type Can interface {
	// Trash moves the file at path to the user's trash (the Recycle Bin on
	// Windows). Errors: errs.StoreIO naming the path, and nothing moved.
	Trash(path string) error
	// Holds reports whether the trash holds a file moved from path (so a
	// run's zip that is gone can say it was moved to the trash).
	Holds(path string) bool
}

// System is the trash of this user's desktop (trashFor).
func System() Can { return trashFor(os.Getenv) }

// freedesktopTrash is Can through the home trash (moveToTrash).
type freedesktopTrash struct{ getenv func(string) string }

func (f freedesktopTrash) Trash(path string) error {
	_, err := moveToTrash(path, f.getenv)
	return err
}

func (f freedesktopTrash) Holds(path string) bool { return inTrash(path, f.getenv) }

var _ Can = freedesktopTrash{}

// moveToTrash moves the file at path to the user's trash as the
// FreeDesktop.org Trash specification (1.0) describes, so that a file
// manager lists it and can restore it: the home trash
// ($XDG_DATA_HOME/Trash, else ~/.local/share/Trash), an info file written
// first (exclusively, which reserves the name), then the file renamed into
// files/. It returns the path in the trash. A file on another filesystem
// than the home trash is refused rather than copied: errs.StoreIO with the
// path, and nothing moved.
func moveToTrash(path string, getenv func(string) string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", errs.Wrap(err, errs.StoreIO, "resolve %s: %v", path, err)
	}
	base := getenv("XDG_DATA_HOME")
	if base == "" {
		home := getenv("HOME")
		if home == "" {
			return "", errs.New(errs.ConfigInvalid, "neither XDG_DATA_HOME nor HOME is set, so there is no trash to move %s to", abs).
				WithHint("delete the file yourself; its path is shown beside it")
		}
		base = filepath.Join(home, ".local", "share")
	}
	trash := filepath.Join(base, "Trash")
	files, info := filepath.Join(trash, "files"), filepath.Join(trash, "info")
	for _, d := range []string{files, info} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", errs.Wrap(err, errs.StoreIO, "create the trash folder %s: %v", d, err)
		}
	}
	name := filepath.Base(abs)
	ext := filepath.Ext(name)
	stem := strings.TrimSuffix(name, ext)
	for n := 1; n < 1000; n++ {
		cand := name
		if n > 1 {
			cand = fmt.Sprintf("%s.%d%s", stem, n, ext)
		}
		infoPath := filepath.Join(info, cand+".trashinfo")
		f, err := os.OpenFile(infoPath, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return "", errs.Wrap(err, errs.StoreIO, "write %s: %v", infoPath, err)
		}
		// Path is URL-escaped per segment, as the specification asks.
		escaped := (&url.URL{Path: abs}).EscapedPath()
		_, werr := fmt.Fprintf(f, "[Trash Info]\nPath=%s\nDeletionDate=%s\n", escaped, time.Now().Format("2006-01-02T15:04:05"))
		if cerr := f.Close(); werr == nil {
			werr = cerr
		}
		dest := filepath.Join(files, cand)
		if werr == nil {
			werr = os.Rename(abs, dest)
		}
		if werr != nil {
			_ = os.Remove(infoPath)
			return "", errs.Wrap(werr, errs.StoreIO, "move %s to the trash: %v", abs, werr).WithEvidence("path", abs).
				WithHint("delete the file yourself; its path is shown beside it")
		}
		return dest, nil
	}
	return "", errs.New(errs.StoreIO, "the trash already holds 999 files named like %s", name).WithHint("empty the trash")
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
