package confine_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ferrydesk/ferry/backend/confine"
)

func TestWithinHoldsEveryPathAnAgentNamesToItsRoots(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the symbolic links of this table need a Unix filesystem")
	}
	dir := t.TempDir()
	root := filepath.Join(dir, "root")
	outside := filepath.Join(dir, "outside")
	for _, d := range []string{root, outside} {
		if err := os.Mkdir(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(root, "notes.txt"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	// A link inside the root that leads out of it, and a link to the root.
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	viaLink := filepath.Join(dir, "root-link")
	if err := os.Symlink(root, viaLink); err != nil {
		t.Fatal(err)
	}
	roots := []string{root}
	for _, c := range []struct {
		name string
		path string
		want bool
	}{
		{"the root itself", root, true},
		{"a file in the root", filepath.Join(root, "notes.txt"), true},
		{"a folder not made yet in the root", filepath.Join(root, "new", "zips"), true},
		{"a file through a link to the root", filepath.Join(viaLink, "notes.txt"), true},
		{"a path through a link that leads out of the root", filepath.Join(root, "escape", "secret.txt"), false},
		{"a folder not made yet behind that link", filepath.Join(root, "escape", "new"), false},
		{"a path that climbs out with ..", filepath.Join(root, "..", "outside"), false},
		{"a folder beside the root sharing its name's start", root + "-evil", false},
		{"a relative path", "root/notes.txt", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			if got := confine.Within(c.path, roots); got != c.want {
				t.Fatalf("Within(%s) = %v, want %v", c.path, got, c.want)
			}
		})
	}
	t.Run("a root named through a link holds the paths under its target", func(t *testing.T) {
		if !confine.Within(filepath.Join(root, "notes.txt"), []string{viaLink}) {
			t.Fatal("a file under the link's target is outside")
		}
	})
}
