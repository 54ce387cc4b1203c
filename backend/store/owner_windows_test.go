package store_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/store"
)

// TestAnOwnerFileNamesItsHolderOnlyWhileItRuns: Windows has no
// /proc/locks, so the OWNER sidecar is all that names a holder there, and
// the sidecar of a process that crashed must not name it.
func TestAnOwnerFileNamesItsHolderOnlyWhileItRuns(t *testing.T) {
	exited := exec.Command(os.Args[0], "-test.run=^$")
	if err := exited.Run(); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		pid   int
		known bool
	}{
		{"a running process is the holder", os.Getpid(), true},
		{"a process that ended is no holder", exited.Process.Pid, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			owner := fmt.Sprintf(`{"pid": %d, "program": "ferry", "role": "serve", "startedAt": "2026-01-01T00:00:00Z"}`, tc.pid)
			if err := os.WriteFile(filepath.Join(dir, store.OwnerFile), []byte(owner), 0o600); err != nil {
				t.Fatal(err)
			}
			h := store.HolderOf(dir)
			if h.Known != tc.known || (tc.known && h.PID != tc.pid) {
				t.Fatalf("holder %+v for an OWNER of pid %d, want known=%v", h, tc.pid, tc.known)
			}
		})
	}
}
