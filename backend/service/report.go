package service

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/ferrydesk/ferry/backend/errs"
)

// ReportRequest asks for the failure report of run ID (an unambiguous id
// prefix is enough).
type ReportRequest struct {
	ID string `json:"id"`
}

// Validate checks the request. Errors: errs.BadInput for a blank id.
func (r ReportRequest) Validate() error { return (SessionRef{ID: r.ID}).Validate() }

// Report is a failed run's report: one zip (see package report for what it
// holds), named for the run.
type Report struct {
	ID    string   `json:"id"`
	Name  string   `json:"name"`  // "ferry-report-<id>.zip"
	Files []string `json:"files"` // the names in the zip, in order
	Zip   []byte   `json:"zip"`
}

// WriteFileAtomic writes data to path through a temporary file in the same
// directory that is synced and renamed into place, so that path never holds
// half a file. It refuses an existing path unless overwrite is set. Errors:
// errs.BadInput for an existing path (without overwrite) or a directory
// that does not exist; errs.DiskFull when the disk is full; errs.Internal
// for other write failures.
func WriteFileAtomic(path string, data []byte, overwrite bool) error {
	if path == "" {
		return errs.New(errs.BadInput, "no file to write the report to")
	}
	if _, err := os.Lstat(path); err == nil && !overwrite {
		return errs.New(errs.BadInput, "%s exists; not overwritten", path).WithHint("pass another --out, or --force to replace it")
	}
	dir := filepath.Dir(path)
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return errs.Wrap(err, errs.BadInput, "the folder %s does not exist", dir)
		}
		return writeErr(path, err)
	}
	done := false
	defer func() {
		if !done {
			_ = tmp.Close()
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(data); err != nil {
		return writeErr(path, err)
	}
	if err := tmp.Sync(); err != nil {
		return writeErr(path, err)
	}
	if err := tmp.Close(); err != nil {
		return writeErr(path, err)
	}
	if !overwrite {
		// A file that appeared since the check is not replaced either.
		err := os.Link(tmp.Name(), path)
		if errors.Is(err, fs.ErrExist) {
			return errs.New(errs.BadInput, "%s exists; not overwritten", path).WithHint("pass another --out, or --force to replace it")
		}
		if err == nil {
			done = true
			_ = os.Remove(tmp.Name())
			return nil
		}
		// A file system without hard links: the check above stands.
	}
	if err := os.Rename(tmp.Name(), path); err != nil {
		return writeErr(path, err)
	}
	done = true
	return nil
}

func writeErr(path string, err error) error {
	if errs.IsNoSpace(err) {
		return errs.Wrap(err, errs.DiskFull, "write %s: the disk is full", path)
	}
	return errs.Wrap(err, errs.Internal, "write %s: %v", path, err)
}

// ReportName is the file name a report of run id gets by default.
func ReportName(id string) string { return fmt.Sprintf("ferry-report-%s.zip", id) }
