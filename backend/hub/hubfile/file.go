// Package hubfile reads and writes the hub file: the small JSON document in
// which a running owner (the desktop app or `ferry serve`) publishes the port
// and owner token of its local API, so that the CLI on the same account can
// find it. The file holds a secret, so it is written atomically readable by
// its owner alone (mode 0600; on Windows an owner-only ACL) and refused when
// anyone but its owner could read it.
package hubfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// File is the content of the hub file. Token is the owner token: a secret
// that must never be printed; String redacts it.
type File struct {
	Port      int       `json:"port"`
	Token     string    `json:"token"`
	PID       int       `json:"pid"`
	StartedAt time.Time `json:"startedAt"`
}

// String describes the file without its token.
func (f File) String() string {
	return fmt.Sprintf("hub on 127.0.0.1:%d (pid %d, started %s)", f.Port, f.PID, f.StartedAt.Format(time.RFC3339))
}

// GoString redacts the token from %#v too.
func (f File) GoString() string { return "hubfile.File{" + f.String() + "}" }

// ErrNotExist is returned (wrapped) by Read when there is no hub file.
var ErrNotExist = fs.ErrNotExist

// Write stores f at path atomically: a temporary file in the same directory
// (mode 0600; on Windows an owner-only ACL), written, synced, renamed over
// path (config.ReplaceFile, which outlasts a virus scanner holding the old
// file on Windows), then the directory synced.
// A reader sees either the old file or the new one, never a part. Errors:
// errs.BadInput for an invalid File, errs.DataDirUnwritable when the
// directory does not take the file.
func Write(path string, f File) error {
	if f.Port <= 0 || f.Port > 65535 || f.Token == "" || f.PID <= 0 {
		return errs.New(errs.BadInput, "hub file for %s is incomplete (port %d, pid %d, token set %t)", path, f.Port, f.PID, f.Token != "")
	}
	data, err := json.Marshal(f)
	if err != nil {
		return fmt.Errorf("encode hub file: %w", err)
	}
	dir := filepath.Dir(path)
	unwritable := func(err error) error {
		return errs.Wrap(err, errs.DataDirUnwritable, "write hub file %s: %v", path, err).WithEvidence("dir", dir)
	}
	tmp, err := os.CreateTemp(dir, ".hub-*.json.tmp")
	if err != nil {
		return unwritable(err)
	}
	tmpName := tmp.Name()
	committed := false
	defer func() {
		if !committed {
			tmp.Close()
			os.Remove(tmpName)
		}
	}()
	// CreateTemp already uses 0600; MakePrivate makes it explicit whatever
	// the umask, and on Windows gives the file an owner-only ACL, before
	// the token is written.
	if err := config.MakePrivate(tmpName); err != nil {
		return unwritable(err)
	}
	if _, err := tmp.Write(data); err != nil {
		return unwritable(err)
	}
	if err := tmp.Sync(); err != nil {
		return unwritable(err)
	}
	if err := tmp.Close(); err != nil {
		return unwritable(err)
	}
	if err := config.ReplaceFile(tmpName, path); err != nil {
		return unwritable(err)
	}
	committed = true
	syncDir(dir)
	return nil
}

// syncDir makes the rename durable where the platform allows it; a failure
// only weakens durability after a power loss, so it is not reported.
func syncDir(dir string) {
	d, err := os.Open(dir)
	if err != nil {
		return
	}
	d.Sync()
	d.Close()
}

// Read loads the hub file at path. Errors: one wrapping ErrNotExist when
// there is none; errs.BadInput when the path is not a regular file, when
// its permissions let other users read it (the token may have leaked:
// config.CheckPrivate), or
// when its content is not a complete hub file.
func Read(path string) (File, error) {
	fi, err := os.Lstat(path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return File{}, fmt.Errorf("read hub file %s: %w", path, ErrNotExist)
		}
		return File{}, errs.Wrap(err, errs.BadInput, "read hub file %s: %v", path, err).WithEvidence("path", path)
	}
	if !fi.Mode().IsRegular() {
		return File{}, errs.New(errs.BadInput, "hub file %s is not a regular file (%s)", path, fi.Mode().Type()).
			WithEvidence("path", path).
			WithHint("remove %s; a running owner writes a new one when it starts", path)
	}
	if err := config.CheckPrivate(path); err != nil {
		if errors.Is(err, config.ErrNotPrivate) {
			return File{}, errs.Wrap(err, errs.BadInput, "hub file %s: other users could read its token (%v)", path, err).
				WithEvidence("path", path).
				WithHint("remove %s and restart the Ferry app or `ferry serve`; it writes a new token readable only by you", path)
		}
		return File{}, errs.Wrap(err, errs.BadInput, "read hub file %s: %v", path, err).WithEvidence("path", path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return File{}, errs.Wrap(err, errs.BadInput, "read hub file %s: %v", path, err).WithEvidence("path", path)
	}
	var f File
	if err := json.Unmarshal(data, &f); err != nil {
		return File{}, errs.Wrap(err, errs.BadInput, "hub file %s is not valid JSON: %v", path, err).
			WithEvidence("path", path).
			WithHint("remove %s; a running owner writes a new one when it starts", path)
	}
	if f.Port <= 0 || f.Port > 65535 || f.Token == "" || f.PID <= 0 {
		return File{}, errs.New(errs.BadInput, "hub file %s is incomplete (port %d, pid %d, token set %t)", path, f.Port, f.PID, f.Token != "").
			WithEvidence("path", path).
			WithHint("remove %s; a running owner writes a new one when it starts", path)
	}
	return f, nil
}

// RemoveIfOwned deletes the hub file at path only when it still names the
// given pid and token, so that an owner shutting down never deletes the file
// of an owner that started after it. A missing file is not an error.
func RemoveIfOwned(path string, pid int, token string) error {
	f, err := Read(path)
	if err != nil {
		if errors.Is(err, ErrNotExist) {
			return nil
		}
		return err
	}
	if f.PID != pid || f.Token != token {
		return nil
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove hub file %s: %w", path, err)
	}
	return nil
}
