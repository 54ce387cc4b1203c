package trash

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMoveToTrash(t *testing.T) {
	home := t.TempDir()
	dataHome := filepath.Join(home, "share")
	env := func(k string) string {
		return map[string]string{"HOME": home, "XDG_DATA_HOME": dataHome}[k]
	}
	dir := t.TempDir()
	put := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("zip bytes of "+name), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	first, err := moveToTrash(put("my project.zip"), env)
	if err != nil {
		t.Fatal(err)
	}
	if first != filepath.Join(dataHome, "Trash", "files", "my project.zip") {
		t.Fatalf("trashed to %s", first)
	}
	if _, err := os.Stat(filepath.Join(dir, "my project.zip")); !os.IsNotExist(err) {
		t.Fatalf("the file is still in place: %v", err)
	}
	info, err := os.ReadFile(filepath.Join(dataHome, "Trash", "info", "my project.zip.trashinfo"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(info), "[Trash Info]\nPath="+strings.ReplaceAll(dir, " ", "%20")+"/my%20project.zip\nDeletionDate=") {
		t.Fatalf("trashinfo:\n%s", info)
	}
	// A second file of the same name does not replace the first.
	second, err := moveToTrash(put("my project.zip"), env)
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Base(second) != "my project.2.zip" {
		t.Fatalf("second trashed as %s", second)
	}
	if b, _ := os.ReadFile(first); string(b) != "zip bytes of my project.zip" {
		t.Fatalf("the first trashed file changed: %q", b)
	}
	// Without XDG_DATA_HOME the home trash is under ~/.local/share.
	p, err := moveToTrash(put("b.zip"), func(k string) string { return map[string]string{"HOME": home}[k] })
	if err != nil || p != filepath.Join(home, ".local", "share", "Trash", "files", "b.zip") {
		t.Fatalf("trashed to %s: %v", p, err)
	}
	// A file that is not there: an error, and no info file left behind.
	if _, err := moveToTrash(filepath.Join(dir, "gone.zip"), env); err == nil {
		t.Fatal("trashing a missing file succeeded")
	}
	if _, err := os.Stat(filepath.Join(dataHome, "Trash", "info", "gone.zip.trashinfo")); !os.IsNotExist(err) {
		t.Fatalf("an info file was left for a file that was not moved: %v", err)
	}
}
