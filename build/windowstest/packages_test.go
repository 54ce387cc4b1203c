//go:build wine

package windowstest

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// suite is one backend package whose tests run under Wine.
type suite struct {
	dir string // under backend/
	// skip names the tests left out here, each with why: only tests that
	// need what a Windows machine has and this prefix cannot (a browser
	// for windows/amd64, Git for Windows, the go tool), each of which runs
	// on Linux by `make test-go`.
	skip []skipped
	// waiting names tests that fail under Wine because of code another part
	// of the work owns (issue 27); they are left out with what fails, and
	// reported so that the owner fixes them.
	waiting []skipped
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
	{dir: "config", waiting: []skipped{
		{"TestEnsureDataDir", "paths*.go: a new data directory is not owner-only (stat drwxrwxrwx), a read-only directory is not refused"},
		{"TestValidate", "settings_test.go's table gives Linux paths (/home/u/.config/chromium/DevToolsActivePort), not absolute on Windows"},
		{"TestSaveThenLoadRoundTrips", "the test saves browser.binary /usr/bin/chromium, not absolute on Windows"},
		{"TestSaveIsAtomicAndPrivate", "private*.go: settings.json is not owner-only; the rename over a file a reader holds open is Access denied; a symlinked settings file is replaced by a file"},
	}},
	{dir: "prompt", skip: []skipped{
		{"TestCheckSources", needsGit},
		{"TestCleanSources", needsGit},
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
	{dir: "hub", waiting: []skipped{
		{"TestTheHubFileIsPrivateAndGoesAwayOnClose", "hubfile: hub.json is written mode 666, not owner-only"},
	}},
	{dir: "hub/client", waiting: []skipped{
		{"TestDiscoverTellsARunningOwnerFromAStaleFile", "hubfile: ProcessAlive (process_other.go) takes a dead pid for alive; Read accepts a hub file others can read"},
	}},
	{dir: "hub/hubfile", waiting: []skipped{
		{"TestWriteIsPrivateAtomicAndReadable", "hubfile: hub.json is written mode 666, not owner-only"},
		{"TestReadRefusesUnsafeOrBrokenFiles", "hubfile: a file others can read is accepted; a symlinked hub file reads as missing"},
	}},
	{dir: "codemode"},
	{dir: "redact"},
	{dir: "report"},
	{dir: "stream"},
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
			var names []string
			for _, k := range append(append([]skipped(nil), s.skip...), s.waiting...) {
				names = append(names, regexp.QuoteMeta(k.test))
			}
			if len(names) > 0 {
				args = append(args, "-test.skip=^("+strings.Join(names, "|")+")")
			}
			r := runWine(t, 9*time.Minute, filepath.Join(root, "backend", filepath.FromSlash(s.dir)), nil, exe, args...)
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
