package browser

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

// binaryNames are the executable names searched in PATH, in order.
var binaryNames = []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome"}

// wellKnownBinaries are install locations that are often not in PATH.
func wellKnownBinaries() []string {
	switch runtime.GOOS {
	case "darwin":
		return []string{
			"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
			"/Applications/Chromium.app/Contents/MacOS/Chromium",
		}
	case "windows":
		var out []string
		for _, env := range []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"} {
			if dir := os.Getenv(env); dir != "" {
				out = append(out, dir+`\Google\Chrome\Application\chrome.exe`)
			}
		}
		return out
	}
	return nil
}

// FindBinary returns the path of a Chromium or Chrome executable: the first
// of chromium, chromium-browser, google-chrome, google-chrome-stable and
// chrome found in PATH, then the platform's usual install locations. It never
// downloads anything. When none is found it fails with BrowserNotFound naming
// every place it looked.
func FindBinary() (string, error) {
	for _, name := range binaryNames {
		if p, err := exec.LookPath(name); err == nil {
			return p, nil
		}
	}
	known := wellKnownBinaries()
	for _, p := range known {
		if isExecutable(p) {
			return p, nil
		}
	}
	searched := "PATH for " + strings.Join(binaryNames, ", ")
	if len(known) > 0 {
		searched += "; " + strings.Join(known, ", ")
	}
	return "", errs.New(errs.BrowserNotFound, "no Chromium or Chrome found (searched %s)", searched).
		WithEvidence("searched", searched).
		WithEvidence("PATH", os.Getenv("PATH")).
		WithHint("install Chromium (Debian/Ubuntu: apt-get install chromium), or pass --chromium PATH, or attach to a running browser with --browser-url")
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
			WithHint("pass the path of an installed Chromium or Chrome with --chromium, or leave it out to search PATH")
	}
	return nil
}

var versionLine = regexp.MustCompile(`(?m)^\s*((?:Google Chrome|Chromium|Chrome)[^\n]*?\d+\.\d+\.\d+\.\d+[^\n]*?)\s*$`)

// BinaryVersion runs `path --version` and returns the version line, such as
// "Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)". Other
// output (Debian's wrapper prints a harmless "[: … unexpected operator") is
// ignored. It fails with BrowserNotFound when path cannot be run and
// BrowserLaunchFailed when it prints no version within ctx or 15 s.
func BinaryVersion(ctx context.Context, path string) (string, error) {
	if err := checkBinary(path); err != nil {
		return "", err
	}
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
