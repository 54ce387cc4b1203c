//go:build wine

package windowstest

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// suite is one backend package whose tests run under Wine.
type suite struct {
	dir string // under backend/, or the repository's top for pkg
	// pkg is the package's directory from the repository's top when it is
	// not under backend/ (app/internal/'s).
	pkg string
	// run, when set, limits the suite to the tests it matches: a package
	// whose other tests need Linux (app/'s freedesktop parts).
	run string
	// display: the tests create windows (a notification icon's, the
	// hotkey's message window), which Wine makes only on an X display.
	display bool
	// skip names the tests left out here, each with why: only tests that
	// need what a Windows machine has and this prefix cannot (a browser
	// for windows/amd64, Git for Windows, the go tool, DACLs that Wine
	// keeps), each of which runs on Linux by `make test-go`.
	skip []skipped
	// waiting names tests that fail under Wine because of code another part
	// of the work owns (issue 27); they are left out with what fails, and
	// reported so that the owner fixes them.
	waiting []skipped
}

// path is the package's directory from the repository's top.
func (s suite) path() string {
	if s.pkg != "" {
		return s.pkg
	}
	return "backend/" + s.dir
}

// skipped is a top-level test left out, by its name or the beginning of
// it, and why.
type skipped struct{ test, why string }

// Reasons shared by several suites.
const (
	needsChromium = "launches /usr/bin/chromium, a Linux program a Windows process cannot start; ferry.exe against the Linux Chromium is TestFerryExeUnderWine"
	needsGit      = "runs git; Git for Windows is not in the prefix, and Linux git started from Wine gives no output back"
)

var suites = []suite{
	{dir: "store"},
	{dir: "artifact"},
	{dir: "attach"},
	{dir: "config", skip: []skipped{
		{"TestSaveIsAtomicAndPrivate/a_symlinked_settings_file_keeps_its_link_and_gets_a_new_target", "Wine 8 makes a symbolic link but does not report it as one (Lstat sees a plain file), so a save through a link cannot be told from one that replaced it; the case runs on Linux"},
	}},
	{dir: "prompt", skip: []skipped{
		{"TestCheckSources", needsGit},
		{"TestCleanSources", needsGit},
		{"TestZipSourcesLeavesNothingBehind", needsGit},
	}},
	{dir: "search"},
	{dir: "errs"},
	{dir: "safetext"},
	{dir: "job", skip: []skipped{
		{"TestACancelledRunKeepsItsPartialAnswerAndItsRestIsCollected", needsChromium},
		{"TestInterstitialPoliciesRetryOnceAgainstTheSimulator", needsChromium},
		{"TestARunKilledInEveryStateIsReattachedWithExactlyOneSubmission", needsChromium},
		{"TestARunKilledDuringTheRateLimitPolicyIsReattachedWithinItsOneRetry", needsChromium},
		{"TestRunJournalsEveryStepBeforeItsSideEffect", needsChromium},
	}},
	{dir: "hub"},
	{dir: "hub/client", skip: []skipped{
		{"TestDiscoverTellsARunningOwnerFromAStaleFile/a_hub_file_others_can_read_is_refused", "Wine keeps no DACLs, so config.CheckPrivate cannot tell a file others can read there (private_windows.go says so); the test's os.Chmod(0644) changes nothing on Windows"},
	}},
	{dir: "hub/hubfile"},
	{dir: "codemode"},
	{dir: "redact"},
	{dir: "report"},
	{dir: "stream"},
	// Finding and starting the browser: the search of every platform, the
	// version line and the profile's lockfile as Windows holds it; the
	// tests that start a browser or a shell script need Linux.
	{dir: "browser/launch", run: "^(TestBrowserSearch|TestTheVersionLineOfEachBrowser|TestAProfileWhoseLockfileIsHeldIsInUse)"},
	{dir: "browser/posted"},
	// The desktop's Windows parts (the Run key, RegisterHotKey, the
	// single-instance guard, the notification icon, the tray's gate, the
	// icons) and their pure parts; the window itself is WebView2, which
	// cannot run here.
	{dir: "app/internal/autostart", pkg: "app/internal/autostart", run: "^TestRunKey"},
	{dir: "app/internal/extras", pkg: "app/internal/extras", display: true, run: "^TestWindowsTray"},
	{dir: "app/internal/hotkey", pkg: "app/internal/hotkey", display: true, run: "^TestWin"},
	{dir: "app/internal/ico", pkg: "app/internal/ico", run: "^TestIcoFromPNG"},
	{dir: "app/internal/instance", pkg: "app/internal/instance", run: "^(TestNamedMutex|TestInstanceName)"},
	{dir: "app/internal/notify", pkg: "app/internal/notify", display: true, run: "^(TestBalloon|TestWindowsLoads)"},
	{dir: "app/internal/opener", pkg: "app/internal/opener", run: "^TestExplorer"},
	{dir: "app/internal/trash", pkg: "app/internal/trash", run: "^(TestRecycle|TestDoubleNul)"},
	{dir: "app/internal/tray", pkg: "app/internal/tray", display: true, run: "^TestWindowsTray"},
	{dir: "app/internal/webview2", pkg: "app/internal/webview2", run: "^TestWebview2"},
	{dir: "app/internal/wording", pkg: "app/internal/wording", run: "^TestBrowserNotFoundHint"},
	{dir: "mcpconfig", skip: []skipped{
		{"TestMCPConfigIsALeaf", "runs `go list`; the go tool is not in the prefix, and the import graph is checked on Linux"},
	}},
}

// TestPackagesUnderWine runs each suite's cross-compiled test binary under
// Wine, in its package's directory (for testdata), two at a time. t.TempDir()
// there is C:\users\NAME\Temp\…: the store's and the artifacts' tests write on
// Windows paths (store and artifact check that it is one).
func TestPackagesUnderWine(t *testing.T) {
	for _, s := range suites {
		t.Run(s.dir, func(t *testing.T) {
			t.Parallel()
			exe := filepath.Join(bin, "tests", filepath.Base(s.dir)+".test.exe")
			args := []string{"-test.count=1", "-test.timeout=8m", "-test.v"}
			if s.run != "" {
				args = append(args, "-test.run="+s.run)
			}
			var env []string
			if s.display {
				d := os.Getenv("FERRY_WINE_DISPLAY")
				if d == "" {
					t.Fatalf("%s's tests need an X display for Wine's windows: run make test-windows (it starts Xvfb)", s.dir)
				}
				env = append(env, "DISPLAY="+d)
			}
			if p := skipPattern(t, append(append([]skipped(nil), s.skip...), s.waiting...)); p != "" {
				args = append(args, "-test.skip="+p)
			}
			r := runWine(t, 9*time.Minute, filepath.Join(root, filepath.FromSlash(s.path())), env, exe, args...)
			passed := strings.Count(r.stdout, "\n--- PASS: ")
			if r.code != 0 || !strings.HasSuffix(strings.TrimSpace(r.stdout), "PASS") || passed == 0 {
				t.Fatalf("%s under Wine: exit %d, %d tests passed\n%s\nstderr:\n%s", s.dir, r.code, passed, failures(r.stdout), tail(r.stderr, 4000))
			}
			t.Logf("%s: %d tests passed under Wine in %s", s.dir, passed, r.took.Round(100*time.Millisecond))
			for _, k := range s.skip {
				t.Logf("left out here: %s: %s", k.test, k.why)
			}
			for _, k := range s.waiting {
				t.Logf("WAITING on its owner: %s: %s", k.test, k.why)
			}
		})
	}
}

// skipPattern is the -test.skip pattern leaving out tests: top-level tests
// by their names' beginnings, or one subtest (test/subtest, alone in its
// suite: -test.skip matches each level of a name with its own part).
func skipPattern(t *testing.T, tests []skipped) string {
	var names []string
	for _, k := range tests {
		if strings.Contains(k.test, "/") {
			if len(tests) != 1 {
				t.Fatalf("%s: a subtest can be left out only alone in its suite", k.test)
			}
			parts := strings.Split(k.test, "/")
			for i, p := range parts {
				parts[i] = "^" + regexp.QuoteMeta(p)
			}
			return strings.Join(parts, "/")
		}
		names = append(names, regexp.QuoteMeta(k.test))
	}
	if len(names) == 0 {
		return ""
	}
	return "^(" + strings.Join(names, "|") + ")"
}

// failures is a -test.v output without the lines of what ran and passed:
// the failures with their messages, and whatever the binary printed.
func failures(out string) string {
	var b strings.Builder
	for _, l := range strings.Split(out, "\n") {
		switch t := strings.TrimSpace(l); {
		case strings.HasPrefix(t, "=== "), strings.HasPrefix(t, "--- PASS: "), t == "":
		default:
			b.WriteString(l + "\n")
		}
	}
	return tail(b.String(), 8000)
}

func tail(s string, n int) string {
	if len(s) > n {
		return "…" + s[len(s)-n:]
	}
	return s
}
