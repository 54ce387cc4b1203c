//go:build linux

// These tests fill a real small disk (spacetest's tmpfs, Linux only). On
// Windows nospace_windows_test.go checks that the system's disk-full errors
// are the same disk_full envelope.

package artifact

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/store/spacetest"
)

func TestSavingAZipOnAFullDiskIsDiskFullAndLeavesNoFile(t *testing.T) {
	disk := spacetest.Mount(t, 4<<20)
	dir := filepath.Join(disk, "artifacts")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	noise := make([]byte, 96<<10)
	rand.Read(noise)
	big := hex.EncodeToString(noise) // does not deflate below the room left
	zip := goZip(t, goEntry{name: "proj/main.go", data: "package main\n"}, goEntry{name: "proj/data.txt", data: big})
	spacetest.Fill(t, disk, 16<<10)
	_, err := Save(context.Background(), dir, "/mnt/data/project.zip", bytes.NewReader(zip), Provenance{Site: "chatgpt"}, fixedClock)
	e := errs.From(err)
	if e == nil || e.Code != errs.DiskFull || e.Evidence["dir"] != dir || !strings.Contains(e.RetryHint, dir) {
		t.Fatalf("Save on a full disk: %+v, want disk_full naming %s", e, dir)
	}
	if got := listDir(t, dir); len(got) != 0 {
		t.Fatalf("a failed save left %v", got)
	}
}

func TestRewritingAFileOnAFullDiskKeepsTheOldOneWhole(t *testing.T) {
	disk := spacetest.Mount(t, 4<<20)
	path := filepath.Join(disk, "receipt.json")
	if err := WriteFileAtomic(path, []byte("old receipt\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	spacetest.Fill(t, disk, 0)
	err := WriteFileAtomic(path, bytes.Repeat([]byte("new receipt\n"), 10000), 0o600)
	if !errs.Has(err, errs.DiskFull) || errs.From(err).Evidence["dir"] != disk {
		t.Fatalf("WriteFileAtomic on a full disk: %v, want disk_full naming %s", err, disk)
	}
	if b, _ := os.ReadFile(path); string(b) != "old receipt\n" {
		t.Fatalf("the old file became %q", b)
	}
	for _, f := range listDir(t, disk) {
		if f != "receipt.json" && !strings.HasPrefix(f, ".ballast-") {
			t.Errorf("a failed write left %s", f)
		}
	}
}
