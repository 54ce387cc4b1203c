package store

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// OwnerFile is the sidecar in the store directory that names the process
// holding it. It is advisory: the lock is badger's flock on the directory.
const OwnerFile = "OWNER"

// Owner is the content of the OWNER sidecar.
type Owner struct {
	PID       int       `json:"pid"`
	Program   string    `json:"program"`
	Role      string    `json:"role"`
	Host      string    `json:"host,omitempty"`
	StartedAt time.Time `json:"startedAt"`
}

// Name is how the owner is shown: "ferry serve".
func (o Owner) Name() string {
	switch {
	case o.Program != "" && (o.Role == o.Program || strings.HasPrefix(o.Role, o.Program+" ")):
		return o.Role // a role given as "ferry doctor" is not repeated as "ferry ferry doctor"
	case o.Program != "" && o.Role != "":
		return o.Program + " " + o.Role
	case o.Program != "":
		return o.Program
	case o.Role != "":
		return "ferry " + o.Role
	}
	return "another process"
}

func writeOwner(dir string, o Owner) error {
	b, err := json.MarshalIndent(o, "", "  ")
	if err != nil {
		return fmt.Errorf("encode owner: %w", err)
	}
	tmp, err := os.CreateTemp(dir, ".owner-*")
	if err != nil {
		return fmt.Errorf("write owner file: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(append(b, '\n')); err != nil {
		tmp.Close()
		return fmt.Errorf("write owner file: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("write owner file: %w", err)
	}
	if err := os.Rename(tmp.Name(), filepath.Join(dir, OwnerFile)); err != nil {
		return fmt.Errorf("write owner file: %w", err)
	}
	return nil
}

// ReadOwner returns the OWNER sidecar of the store directory dir. It does not
// say whether that owner still runs: HolderOf does.
func ReadOwner(dir string) (Owner, error) {
	var o Owner
	b, err := os.ReadFile(filepath.Join(dir, OwnerFile))
	if err != nil {
		return o, fmt.Errorf("read owner file: %w", err)
	}
	if err := json.Unmarshal(b, &o); err != nil {
		return o, fmt.Errorf("decode owner file: %w", err)
	}
	return o, nil
}

// Holder describes who holds a store directory, as far as can be told.
type Holder struct {
	Owner
	Known bool // false: the directory is locked but nothing names the holder
}

// HolderOf tells who holds the lock on the store directory dir: the OWNER
// sidecar when its pid is the lock's holder (or when the lock's holder cannot
// be read from /proc/locks and the sidecar's process is alive), else the pid
// from /proc/locks with its program name, else an unknown holder. It does not
// check that the directory is locked at all: call it once a lock attempt
// failed.
func HolderOf(dir string) Holder {
	lockPID, lockKnown := lockHolderPID(dir)
	side, sideErr := ReadOwner(dir)
	sideOK := sideErr == nil && side.PID > 0
	switch {
	case sideOK && lockKnown && side.PID == lockPID:
		return Holder{Owner: side, Known: true}
	case lockKnown:
		return Holder{Owner: Owner{PID: lockPID, Program: processName(lockPID)}, Known: true}
	case sideOK && processAlive(side.PID):
		return Holder{Owner: side, Known: true}
	}
	return Holder{}
}

// busyError is the envelope for a directory held by someone else.
//
// The message names the data directory the user chose: the parent of a
// store directory named "db" (config.Paths.StoreDir), else dir itself.
func busyError(dir string) *errs.Envelope {
	h := HolderOf(dir)
	shown := dir
	if filepath.Base(dir) == "db" {
		shown = filepath.Dir(dir)
	}
	if !h.Known {
		return errs.New(errs.StoreBusy, "data directory %s is in use by another process", shown).
			WithEvidence("dir", dir).
			WithEvidence("holder", "another process")
	}
	who := h.Name()
	desc := "pid " + strconv.Itoa(h.PID)
	if !h.StartedAt.IsZero() {
		desc += ", since " + sinceText(h.StartedAt, time.Now())
	}
	e := errs.New(errs.StoreBusy, "data directory %s is in use by %s (%s)", shown, who, desc).
		WithEvidence("dir", dir).
		WithEvidence("pid", strconv.Itoa(h.PID)).
		WithEvidence("holder", who)
	if h.Role != "" {
		e = e.WithEvidence("role", h.Role)
	}
	if !h.StartedAt.IsZero() {
		e = e.WithEvidence("since", h.StartedAt.Format(time.RFC3339))
	}
	return e
}

// sinceText shows a start time as the clock time when it was today, with the
// date otherwise.
func sinceText(t, now time.Time) string {
	t = t.Local()
	now = now.Local()
	if t.Year() == now.Year() && t.YearDay() == now.YearDay() {
		return t.Format("15:04")
	}
	return t.Format("2006-01-02 15:04")
}

func removeOwner(dir string) error {
	err := os.Remove(filepath.Join(dir, OwnerFile))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("remove owner file: %w", err)
	}
	return nil
}
