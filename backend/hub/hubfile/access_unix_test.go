//go:build unix

package hubfile_test

import (
	"os"
	"testing"
)

// assertOwnerOnly fails unless path has mode 0600.
func assertOwnerOnly(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("stat %s: %v, %v", path, fi.Mode(), err)
	}
}

// exposeToOthers lets every user read path.
func exposeToOthers(t *testing.T, path string) {
	t.Helper()
	if err := os.Chmod(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
