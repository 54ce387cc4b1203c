//go:build !windows

package opener

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Show in folder asks xdg-mime which application opens folders: on a
// desktop without one, xdg-open would fall back to a web browser.
func TestFolderHandlerIsTheDesktopsChoiceForFolders(t *testing.T) {
	if _, err := exec.LookPath("xdg-mime"); err != nil {
		t.Fatal("xdg-mime is missing: run `make setup` (xdg-utils)")
	}
	home := t.TempDir()
	env := []string{
		"PATH=" + os.Getenv("PATH"),
		"HOME=" + home,
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_DATA_DIRS=" + filepath.Join(home, "system"),
	}
	if folderHandler(env) {
		t.Fatal("a desktop without an application for folders reports one")
	}
	apps := filepath.Join(home, ".local", "share", "applications")
	if err := os.MkdirAll(apps, 0o700); err != nil {
		t.Fatal(err)
	}
	desktop := "[Desktop Entry]\nType=Application\nName=Files\nExec=true %U\nMimeType=inode/directory;\n"
	if err := os.WriteFile(filepath.Join(apps, "files.desktop"), []byte(desktop), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(home, ".config"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(home, ".config", "mimeapps.list"), []byte("[Default Applications]\ninode/directory=files.desktop\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if !folderHandler(env) {
		t.Fatal("the folder application set in mimeapps.list is not seen")
	}
}
