package launch

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"regexp"
	"runtime"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// binaryNames are the executable names searched in PATH on Linux and
// macOS, in order (searchPlan has Windows' own).
var binaryNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome",
	"brave-browser", "microsoft-edge", "microsoft-edge-stable"}

// FindBinary returns the path of a Chromium-based browser Ferry can drive:
// the first found of the platform's names in PATH, then (Windows) the
// registry's App Paths and the usual install folders for Chrome, Chromium,
// Brave and Edge, or (macOS) the .app bundles in /Applications and
// ~/Applications. It never downloads anything. When none is found it fails
// with BrowserNotFound naming every place it looked and the platform's own
// way to install one.
func FindBinary() (string, error) {
	return search(thisMachine())
}

// thisMachine is the search environment of the running process.
func thisMachine() searchEnv {
	home, _ := os.UserHomeDir()
	return searchEnv{
		goos:     runtime.GOOS,
		getenv:   os.Getenv,
		home:     home,
		lookPath: exec.LookPath,
		appPath:  appPathFromRegistry,
		isExec:   isExecutable,
	}
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	if err != nil || st.IsDir() {
		return false
	}
	return runtime.GOOS == "windows" || st.Mode()&0o111 != 0
}

// checkBinary fails with BrowserNotFound when path is not an executable file.
func checkBinary(path string) error {
	if !isExecutable(path) {
		return errs.New(errs.BrowserNotFound, "the browser executable %q does not exist or is not executable", path).
			WithEvidence("path", path).
			WithHint("pass the path of an installed Chromium, Chrome, Edge or Brave executable with --chromium, or leave it out to search the usual places")
	}
	return nil
}

var versionLine = regexp.MustCompile(`(?m)^\s*((?:Google Chrome|Chromium|Chrome|Microsoft Edge|Brave Browser|Brave)[^\n]*?\d+\.\d+\.\d+\.\d+[^\n]*?)\s*$`)

// BinaryVersion returns the browser's version line, such as "Chromium
// 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)" or "Microsoft
// Edge 131.0.2903.86". On Linux and macOS it runs `path --version` (other
// output — Debian's wrapper prints a harmless "[: … unexpected operator" —
// is ignored); on Windows, where Chrome and Edge print nothing for
// --version, it reads the executable's version resource. It fails with
// BrowserNotFound when path cannot be run or read and BrowserLaunchFailed
// when it gives no version (within ctx or 15 s).
func BinaryVersion(ctx context.Context, path string) (string, error) {
	if err := checkBinary(path); err != nil {
		return "", err
	}
	if v, ok, err := resourceVersion(path); ok {
		return v, err
	}
	return runVersion(ctx, path)
}

// runVersion runs `path --version` and finds the version line.
func runVersion(ctx context.Context, path string) (string, error) {
	ctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, path, "--version")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	if m := versionLine.FindSubmatch(out.Bytes()); m != nil {
		return string(m[1]), nil
	}
	var ee *exec.ExitError
	if err != nil && !errors.As(err, &ee) && ctx.Err() == nil {
		return "", errs.Wrap(err, errs.BrowserNotFound, "run %s --version: %v", path, err).WithEvidence("path", path)
	}
	return "", errs.Wrap(err, errs.BrowserLaunchFailed, "%s --version printed no version", path).
		WithEvidence("path", path).WithEvidence("output", tail(out.String(), 400))
}

func tail(s string, n int) string {
	s = strings.TrimSpace(s)
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
