package artifact

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/backend/errs"
)

// windowsDir is a new directory under t.TempDir() whose name has a space and
// a letter outside ASCII, as a user's profile can; it fails t unless the
// path is a Windows one (a drive letter, backslashes), which is what these
// tests are for.
func windowsDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "Ferry Artifacts", "Zoë")
	if v := filepath.VolumeName(dir); len(v) != 2 || v[1] != ':' || strings.Contains(dir, "/") {
		t.Fatalf("%s is not a Windows path with a drive letter", dir)
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestAZipIsSavedAndReplacedAtomicallyOnAWindowsPath(t *testing.T) {
	dir := windowsDir(t)
	zip := goZip(t, goEntry{name: `proj/main.go`, data: "package main\n"})
	prov := Provenance{Site: "chatgpt", SandboxPath: "/mnt/data/project.zip"}
	s, err := Save(context.Background(), dir, "/mnt/data/project.zip", bytes.NewReader(zip), prov, fixedClock)
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	if s.Path != filepath.Join(dir, "project.zip") || s.Quarantined || !s.Verdict.OK {
		t.Fatalf("saved = %+v", s)
	}
	if got := listDir(t, dir); strings.Join(got, ",") != "project.zip,project.zip.provenance.json" {
		t.Fatalf("dir holds %v", got)
	}
	// The sidecar is rewritten in place of the old one: on Windows a rename
	// over an existing file needs MoveFileEx's replace, which os.Rename is.
	side := s.SidecarPath
	for _, content := range []string{`{"n":1}`, `{"n":2}`} {
		if err := WriteFileAtomic(side, []byte(content), 0o600); err != nil {
			t.Fatalf("rewrite %s: %v", side, err)
		}
		if b, _ := os.ReadFile(side); string(b) != content {
			t.Fatalf("%s holds %q, want %q", side, b, content)
		}
	}
	if got := listDir(t, dir); len(got) != 2 {
		t.Fatalf("temporary files left beside the zip: %v", got)
	}
}

func TestWindowsDiskFullErrorsAreDiskFull(t *testing.T) {
	dir := windowsDir(t)
	for _, code := range []syscall.Errno{windows.ERROR_DISK_FULL, windows.ERROR_HANDLE_DISK_FULL} {
		err := saveErr(&fs.PathError{Op: "write", Path: filepath.Join(dir, "project.zip"), Err: code}, "save %s", "project.zip")
		e := errs.From(err)
		if e == nil || e.Code != errs.DiskFull || e.Evidence["dir"] != dir {
			t.Fatalf("%v: got %v, want disk_full naming %s", code, err, dir)
		}
		if strings.Contains(e.RetryHint, "df -h") || !strings.Contains(e.RetryHint, "Explorer") {
			t.Fatalf("the hint %q names no Windows way to see the free space", e.RetryHint)
		}
	}
	if e := errs.From(saveErr(&fs.PathError{Op: "write", Path: dir, Err: windows.ERROR_ACCESS_DENIED}, "save")); e == nil || e.Code == errs.DiskFull {
		t.Fatalf("access denied is not a full disk: %v", e)
	}
}
