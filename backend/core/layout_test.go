package core

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestBackendNeverDependsOnWailsOrTheApp enforces the layout rule of
// docs/ARCHITECTURE.md: backend code is pure Go, testable without a display,
// and only app/ may import wails.
func TestBackendNeverDependsOnWailsOrTheApp(t *testing.T) {
	deps := listDeps(t, "./backend/...")
	for pkg, ds := range deps {
		for _, d := range ds {
			if strings.Contains(d, "github.com/wailsapp/wails") || d == "github.com/ferrydesk/ferry/app" ||
				strings.HasPrefix(d, "github.com/ferrydesk/ferry/app/") {
				t.Errorf("%s depends on %s: only app/ may use wails", pkg, d)
			}
		}
	}
}

// TestAdaptersStayOutOfTheStoreAndTheJournal enforces the adapter import rule:
// provider/<vendor> may use provider, browser, site, stream, interstitial and
// errs, never store or job. The conformance suite (provider/providertest),
// which only tests import, drives adapters through the job runner and is
// the one exception.
func TestAdaptersStayOutOfTheStoreAndTheJournal(t *testing.T) {
	deps := listDeps(t, "./backend/...")
	const prefix = "github.com/ferrydesk/ferry/backend/provider/"
	for pkg, ds := range deps {
		for _, d := range ds {
			if d == prefix+"providertest" {
				t.Errorf("%s depends on %s: only tests may use the conformance suite", pkg, d)
			}
		}
		if !strings.HasPrefix(pkg, prefix) || pkg == prefix+"providertest" {
			continue
		}
		for _, d := range ds {
			if d == "github.com/ferrydesk/ferry/backend/store" || d == "github.com/ferrydesk/ferry/backend/job" {
				t.Errorf("%s depends on %s: adapters never touch the store or the journal", pkg, d)
			}
		}
	}
}

// TestCLIBuildsWithoutCgo is the promise that `ferry` is a pure Go binary.
func TestCLIBuildsWithoutCgo(t *testing.T) {
	cmd := exec.Command("go", "build", "-o", filepath.Join(t.TempDir(), "ferry"), "./backend/cmd/ferry")
	cmd.Dir = moduleRoot(t)
	cmd.Env = append(cmd.Environ(), "CGO_ENABLED=0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("CGO_ENABLED=0 go build ./backend/cmd/ferry: %v\n%s", err, out)
	}
}

func listDeps(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Deps " "}}`, pattern)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	deps := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			deps[f[0]] = f[1:]
		}
	}
	if len(deps) < 3 {
		t.Fatalf("go list found only %d packages under backend/: the check would prove nothing", len(deps))
	}
	return deps
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
