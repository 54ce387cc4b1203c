//go:build !windows

package opener

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Reveal shows the folder that holds path: xdg-open on the folder
// (open on macOS), since selecting the file needs the FileManager1 D-Bus
// interface, which not every file manager has. An error says that nothing
// answered.
func Reveal(path string) error {
	dir := filepath.Dir(path)
	if runtime.GOOS == "linux" && !folderHandler(os.Environ()) {
		// Without an application for folders xdg-open falls back to a web
		// browser's listing of the folder; that is no file manager, and
		// whether it "answered" would be a guess at its start-up time.
		return errs.New(errs.CapabilityMissing, "nothing on this desktop answered to show the folder %s: no application is set to open folders (inode/directory)", dir).
			WithEvidence("path", dir)
	}
	return openWith(dir, "show the folder %s")
}

// Open hands path to the desktop's opener (openWith).
func Open(path string) error { return openWith(path, "open %s") }

// folderHandler reports whether the desktop names an application for
// folders (xdg-mime's default for inode/directory) in the environment env.
// Without xdg-mime it cannot tell, and says yes: xdg-open decides.
func folderHandler(env []string) bool {
	cmd := exec.Command("xdg-mime", "query", "default", "inode/directory")
	cmd.Env = env
	out, err := cmd.Output()
	if errors.Is(err, exec.ErrNotFound) {
		return true
	}
	return err == nil && len(bytes.TrimSpace(out)) > 0
}
