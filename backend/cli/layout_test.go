package cli

import (
	"go/parser"
	"go/token"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The commands are written once against service.Service and reach the
// backend through the service layer only (service and the records it
// carries, package record): whichever implementation answers, they cannot
// reach around it to the store, the browser or a site. Only the
// choice of the remote implementation (owner.go, service.go) names
// hub/client; what needs more is clihost's, which the binary links in.
// safetext (what makes an agent's or a site's text safe for the terminal)
// is a leaf that reaches nothing, and attach (what --file names, expanded
// where the user runs the command) reaches only errs and record:
// TestSafetextIsALeaf and TestAttachIsALeaf hold them to that. The
// packages the CLI keeps under internal/ (its documents, the reading of
// the browser flags, the text of the results, the question it asks before
// what cannot be taken back) are held to the same rule,
// file by file.
func TestServiceCommandsImportOnlyTheServiceLayer(t *testing.T) {
	t.Parallel()
	const backend = "github.com/ferrydesk/ferry/backend/"
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	internal, err := filepath.Glob("internal/*/*.go")
	if err != nil || len(internal) == 0 {
		t.Fatalf("no files under internal/ (%v): the rule would not see them", err)
	}
	files = append(files, internal...)
	var checked int
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		checked++
		allowed := map[string]bool{"service": true, "record": true, "errs": true, "config": true, "version": true, "safetext": true, "attach": true,
			"cli/internal/cmddoc": true, "cli/internal/browserflag": true, "cli/internal/termtext": true, "cli/internal/confirm": true}
		if file == "owner.go" || file == "service.go" || file == "clients.go" {
			allowed["hub/client"] = true
		}
		t.Run(file+" imports only the service layer from the backend", func(t *testing.T) {
			f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.ImportsOnly)
			if err != nil {
				t.Fatal(err)
			}
			for _, imp := range f.Imports {
				path, err := strconv.Unquote(imp.Path.Value)
				if err != nil {
					t.Fatal(err)
				}
				if rest, ok := strings.CutPrefix(path, backend); ok && !allowed[rest] {
					t.Errorf("%s imports %s", file, path)
				}
			}
		})
	}
	if checked < 10 {
		t.Fatalf("only %d files checked: the rule would prove nothing", checked)
	}
}

// TestSafetextIsALeaf: the one package the commands may import beside the
// service layer depends on no other package of Ferry.
func TestSafetextIsALeaf(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "../safetext").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 3 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(deps))
	}
	for _, d := range deps {
		if strings.HasPrefix(d, "github.com/ferrydesk/ferry/") && d != "github.com/ferrydesk/ferry/backend/safetext" {
			t.Errorf("safetext depends on %s", d)
		}
	}
}

// TestAttachIsALeaf: the expansion and checks of --file depend on nothing
// of Ferry's but the error envelope and the record of an attachment.
func TestAttachIsALeaf(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", "../attach").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 3 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(deps))
	}
	for _, d := range deps {
		switch d {
		case "github.com/ferrydesk/ferry/backend/attach", "github.com/ferrydesk/ferry/backend/errs",
			"github.com/ferrydesk/ferry/backend/record", "github.com/ferrydesk/ferry/backend/redact":
		default:
			if strings.HasPrefix(d, "github.com/ferrydesk/ferry/") {
				t.Errorf("attach depends on %s", d)
			}
		}
	}
}

// TestTheCLIDependsOnNoBrowserStoreOrSite is the same rule over everything
// the package pulls in: the CLI links no browser, store, journal, artifact
// code, site registry or vendor (the binary gets those from clihost).
func TestTheCLIDependsOnNoBrowserStoreOrSite(t *testing.T) {
	t.Parallel()
	out, err := exec.Command("go", "list", "-deps", ".").Output()
	if err != nil {
		t.Fatalf("go list -deps: %v", err)
	}
	deps := strings.Fields(string(out))
	if len(deps) < 10 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(deps))
	}
	const backend = "github.com/ferrydesk/ferry/backend/"
	for _, d := range deps {
		rest, ok := strings.CutPrefix(d, backend)
		if !ok {
			continue
		}
		for _, banned := range []string{"browser", "store", "job", "artifact", "site", "core", "codemode", "search", "stream", "interstitial", "provider", "doctor", "clihost", "jobs", "runs", "ownerbrowser", "logins"} {
			if rest == banned || strings.HasPrefix(rest, banned+"/") {
				t.Errorf("the cli depends on %s", d)
			}
		}
	}
}
