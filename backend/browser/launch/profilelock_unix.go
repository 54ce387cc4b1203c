//go:build unix

package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/proctree"
)

// checkProfileFree fails with BrowserLaunchFailed when another live browser
// process holds the profile's SingletonLock. Chromium would otherwise hand
// the start over to that process and exit, and Ferry would wait for an
// endpoint that never comes. A lock left by a dead process is Chromium's to
// clean up.
func checkProfileFree(dir string) error {
	target, err := os.Readlink(filepath.Join(dir, "SingletonLock"))
	if err != nil {
		return nil
	}
	i := strings.LastIndex(target, "-")
	if i < 0 {
		return nil
	}
	host, pidText := target[:i], target[i+1:]
	pid, err := strconv.Atoi(pidText)
	if err != nil {
		return nil
	}
	me, _ := os.Hostname()
	// A holder that ended but was not reaped (an orphaned browser killed
	// with its Ferry) holds nothing either.
	if host == me && (!processAlive(pid) || proctree.Zombie(pid)) {
		return nil
	}
	where := fmt.Sprintf("process %d on %s", pid, host)
	return errs.New(errs.BrowserLaunchFailed, "the browser profile %s is in use by another browser (%s)", dir, where).
		WithEvidence("profile", dir).WithEvidence("holder", where).
		WithHint("close the browser that uses Ferry's profile (or attach to it with --browser-url), then run again")
}
