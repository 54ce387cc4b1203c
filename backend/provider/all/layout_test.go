package all_test

import (
	"os/exec"
	"strings"
	"testing"
)

const module = "github.com/ferrydesk/ferry/backend/"

// goList runs `go list -f format pkgs...` from this folder and returns each
// line's fields keyed by the first.
func goList(t *testing.T, format string, pkgs ...string) map[string][]string {
	t.Helper()
	out, err := exec.Command("go", append([]string{"list", "-f", format}, pkgs...)...).Output()
	if err != nil {
		t.Fatalf("go list %v: %v", pkgs, err)
	}
	m := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			m[f[0]] = f[1:]
		}
	}
	return m
}

// TestEachSiteIsOneFolderAndTheRegistriesNameNone enforces the direction of
// the one-folder-per-site layout (docs/ADDING-A-SITE.md): a vendor package
// (each package this one links in) never depends on the store, the job
// runner, the run pipeline (runs), the owner's jobs, core or another
// vendor; the registries it fills (site, stream, interstitial, provider,
// provider/sim) depend on no vendor.
func TestEachSiteIsOneFolderAndTheRegistriesNameNone(t *testing.T) {
	vendors := goList(t, `{{.ImportPath}} {{join .Imports " "}}`, ".")
	var list []string
	for _, imports := range vendors {
		list = imports
	}
	if len(list) == 0 {
		t.Fatal("provider/all links in no vendor")
	}
	isVendor := map[string]bool{}
	for _, v := range list {
		isVendor[v] = true
	}
	deps := goList(t, `{{.ImportPath}} {{join .Deps " "}}`, append(list,
		"../../site", "../../stream", "../../interstitial", "..", "../sim")...)
	for pkg, ds := range deps {
		for _, d := range ds {
			switch {
			case isVendor[pkg] && (d == module+"store" || d == module+"job" || d == module+"runs" || d == module+"jobs" || d == module+"core"):
				t.Errorf("%s depends on %s: a site's folder never touches the store, the job runner, the run pipeline, the owner's jobs or core", pkg, d)
			case isVendor[pkg] && isVendor[d]:
				t.Errorf("%s depends on %s: a site's folder never depends on another site's", pkg, d)
			case !isVendor[pkg] && isVendor[d]:
				t.Errorf("%s depends on %s: a registry names no site; the site registers itself", pkg, d)
			}
		}
	}
}
