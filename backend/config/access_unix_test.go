//go:build unix

package config_test

import (
	"os"
	"runtime"
	"testing"
)

// assertOwnerOnly fails unless path has mode want (0600 or 0700).
func assertOwnerOnly(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil || fi.Mode().Perm() != want {
		t.Fatalf("stat %s: %v, %v; want mode %04o", path, fi.Mode(), err, want)
	}
}

// openReader opens path for reading as another program would.
func openReader(path string) (*os.File, error) { return os.Open(path) }

// unwritableDir is a directory this test cannot write in.
func unwritableDir(t *testing.T) string {
	t.Helper()
	if os.Geteuid() == 0 {
		// Root writes through permission bits; a read-only bind is not
		// available to a test, so use a directory root cannot write
		// either: /proc.
		if runtime.GOOS != "linux" {
			t.Skip("needs /proc")
		}
		return "/proc"
	}
	dir := t.TempDir()
	os.Chmod(dir, 0o500)
	t.Cleanup(func() { os.Chmod(dir, 0o700) })
	return dir
}
