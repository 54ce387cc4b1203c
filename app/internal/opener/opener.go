// Package opener hands files to the desktop: Reveal shows a file's folder
// in the file manager (Explorer with the file selected on Windows), Open
// opens a file in the application the desktop has for it. An error says
// that nothing answered.
package opener

import (
	"os/exec"
	"runtime"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// openerSettle is how long openWith waits for the opener to fail: xdg-open
// exits at once with a status when no application takes the file, and
// stays (or exits 0) when one does.
const openerSettle = 3 * time.Second

// openWith hands target to the desktop's opener (xdg-open; open on macOS,
// explorer on Windows) and reports whether something took it: a missing
// opener, or one that exits with a failure within openerSettle, is an
// error saying so (what did "something" do is the desktop's business).
func openWith(target, what string) error {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", target)
	case "windows":
		cmd = exec.Command("explorer", target)
	default:
		cmd = exec.Command("xdg-open", target)
	}
	fail := func(err error) error {
		return errs.Wrap(err, errs.CapabilityMissing, "nothing on this desktop answered to "+what+": %v", target, err).
			WithEvidence("path", target)
	}
	if err := cmd.Start(); err != nil {
		return fail(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			return fail(err)
		}
	case <-time.After(openerSettle):
		// still running: an application took it; the goroutine reaps it
	}
	return nil
}
