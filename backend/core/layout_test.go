package core

import (
	"bytes"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/site"
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
		if isTestHelper(pkg) {
			// A helper package for tests (mcptest, spacetest) may use the
			// suite; no other package may depend on the helper (below).
			continue
		}
		for _, d := range ds {
			if d == prefix+"providertest" {
				t.Errorf("%s depends on %s: only tests may use the conformance suite", pkg, d)
			} else if isTestHelper(d) {
				t.Errorf("%s depends on %s: only tests may use a test helper package", pkg, d)
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

// isTestHelper reports whether pkg is one of Ferry's packages of helpers
// for tests: its name ends in "test" (providertest, mcptest, spacetest).
func isTestHelper(pkg string) bool {
	return strings.HasPrefix(pkg, "github.com/ferrydesk/ferry/") && strings.HasSuffix(pkg[strings.LastIndex(pkg, "/")+1:], "test")
}

// TestArtifactImportsNoProvider enforces that the verifier, the save and
// the provenance know no site: a site's record, mint and hosts live with
// its provider, behind provider.ArtifactSource.
func TestArtifactImportsNoProvider(t *testing.T) {
	checked := 0
	for pkg, ds := range listDeps(t, "./backend/...") {
		if pkg != artifactPkg && !strings.HasPrefix(pkg, artifactPkg+"/") {
			continue
		}
		checked++
		for _, d := range ds {
			if d == providerPkg || strings.HasPrefix(d, providerPkg+"/") {
				t.Errorf("%s depends on %s: artifact imports no provider", pkg, d)
			}
		}
	}
	if checked == 0 {
		t.Fatalf("go list found no %s: the check would prove nothing", artifactPkg)
	}
}

// TestArtifactNamesNoSiteHost: no source file of artifact names the host
// of a built-in site; a site's addresses live with its provider.
func TestArtifactNamesNoSiteHost(t *testing.T) {
	var hosts []string
	for _, st := range site.Builtin().Sites() {
		if h := st.Host(); h != "" {
			hosts = append(hosts, h)
		}
	}
	if len(hosts) < 2 {
		t.Fatalf("the built-in registry names %d hosts: the check would prove nothing", len(hosts))
	}
	for f, b := range sources(t, "backend/artifact") {
		for _, h := range hosts {
			if strings.Contains(string(b), h) {
				t.Errorf("%s names %s: artifact knows no site", filepath.Base(f), h)
			}
		}
	}
}

// TestVendorsAreImportedOnlyThroughAll enforces one folder per site: no
// package outside backend/provider imports a vendor package (a site's
// folder under provider/) except provider/all, which links them all in;
// code asks an adapter for a capability by interface, never for its
// vendor's type. Tests may import a vendor.
func TestVendorsAreImportedOnlyThroughAll(t *testing.T) {
	imports := listImports(t, "./...")
	vendors := 0
	for pkg := range imports {
		if isVendor(pkg) {
			vendors++
		}
	}
	if vendors < 2 {
		t.Fatalf("found %d vendor packages under %s: the check would prove nothing", vendors, providerPkg)
	}
	for pkg, is := range imports {
		if strings.HasPrefix(pkg, providerPkg+"/") {
			continue
		}
		for _, d := range is {
			if isVendor(d) {
				t.Errorf("%s imports %s: only %s/all imports a vendor", pkg, d, providerPkg)
			}
		}
	}
}

// TestCodeModeIsWiredByCore enforces that code mode knows no vendor and
// does not reach back into what wires it: the run pipeline (runs), the
// owner's jobs (jobs) and the composition root (core).
func TestCodeModeIsWiredByCore(t *testing.T) {
	checked := 0
	for pkg, ds := range listDeps(t, "./backend/...") {
		if !strings.HasPrefix(pkg, "github.com/ferrydesk/ferry/backend/codemode") {
			continue
		}
		checked++
		for _, d := range ds {
			if d == "github.com/ferrydesk/ferry/backend/core" || d == "github.com/ferrydesk/ferry/backend/jobs" ||
				d == "github.com/ferrydesk/ferry/backend/runs" || isVendor(d) || d == providerPkg+"/all" {
				t.Errorf("%s depends on %s: codemode is wired by runs and asks adapters for provider.ArtifactSource", pkg, d)
			}
		}
	}
	if checked == 0 {
		t.Fatal("go list found no codemode package: the check would prove nothing")
	}
}

// TestCoreDoesNotImportTheHub enforces that core implements the service
// and the hub serves it, not the other way round: nothing core depends on
// is the gateway or its client (the owners that start a gateway, app and
// clihost, pass core's Service to it).
func TestCoreDoesNotImportTheHub(t *testing.T) {
	const hubPkg = "github.com/ferrydesk/ferry/backend/hub"
	deps := listDeps(t, "./backend/...")
	ds, ok := deps["github.com/ferrydesk/ferry/backend/core"]
	if !ok {
		t.Fatal("go list found no backend/core: the check would prove nothing")
	}
	for _, d := range ds {
		if d == hubPkg || strings.HasPrefix(d, hubPkg+"/") {
			t.Errorf("backend/core depends on %s: core implements service.Gateway; the hub imports the service, never the reverse", d)
		}
	}
}

// TestTheHubImportsOnlyTheServiceLayer enforces that the gateway is a
// transport in front of a service.Gateway: from the backend it imports the
// service layer (and the leaves that layer stands on, record among them) and its own hub
// file, never the implementation (core, clients, the store, the jobs or
// the browser), so that every rule it serves is decided in one place.
func TestTheHubImportsOnlyTheServiceLayer(t *testing.T) {
	const backend = "github.com/ferrydesk/ferry/backend/"
	allowed := map[string]bool{}
	for _, p := range []string{"service", "record", "errs", "config", "version", "redact", "proctree", "hub/hubfile"} {
		allowed[backend+p] = true
	}
	deps := listDeps(t, "./backend/...")
	ds, ok := deps[backend+"hub"]
	if !ok {
		t.Fatal("go list found no backend/hub: the check would prove nothing")
	}
	for _, d := range ds {
		if strings.HasPrefix(d, backend) && !allowed[d] {
			t.Errorf("backend/hub depends on %s: the hub asks the service (service.Gateway), never its implementation", d)
		}
	}
}

// maxCoreLines bounds the non-test Go lines of backend/core (issue 28).
const maxCoreLines = 3000

// TestTheCoreStaysACompositionRoot holds backend/core to what it is for:
// opening the data directory, composing the packages that do the work
// (runs, jobs, ownerbrowser, logins, sitecheck, clients, tabs) and the one
// Service in front of them, which decides what each caller may do. A core
// that grows past maxCoreLines has taken a concern of its own in again.
func TestTheCoreStaysACompositionRoot(t *testing.T) {
	files := sources(t, "backend/core")
	if len(files) < 10 {
		t.Fatalf("counted %d files of backend/core: the check would prove nothing", len(files))
	}
	lines := 0
	for _, b := range files {
		lines += bytes.Count(b, []byte("\n"))
	}
	if lines > maxCoreLines {
		t.Errorf("backend/core has %d lines of Go outside its tests, over %d: move the part that grew into a package "+
			"of its own under backend/ (as runs, jobs, ownerbrowser and logins are) that core composes, passing it what "+
			"it needs from the core explicitly, and keep in core only the composition and the Service's decisions", lines, maxCoreLines)
	}
}

// maxPackageLines bounds the non-test Go lines of every package of the
// module, build tags and platforms all counted (issue 28).
const maxPackageLines = 3000

// TestNoPackageGrowsPastThreeThousandLines keeps each package one concern
// a newcomer can read: a package past maxPackageLines has taken in
// another, which becomes a package of its own beside or under it (as
// app/internal/*, browser/launch and browser/fetch, cli/internal/* did).
func TestNoPackageGrowsPastThreeThousandLines(t *testing.T) {
	t.Parallel()
	root := moduleRoot(t)
	cmd := exec.Command("go", "list", "-e", "-f", "{{.Dir}}", "./...")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list ./...: %v", err)
	}
	dirs := strings.Fields(string(out))
	if len(dirs) < 40 {
		t.Fatalf("go list found %d packages: the check would prove nothing", len(dirs))
	}
	for _, dir := range dirs {
		rel, err := filepath.Rel(root, dir)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, b := range sources(t, rel) {
			lines += bytes.Count(b, []byte("\n"))
		}
		if lines > maxPackageLines {
			t.Errorf("%s has %d lines of Go outside its tests, over %d: move a concern it has taken in into a package of "+
				"its own (under its internal/ when nothing else needs it), passing it what it needs explicitly", rel, lines, maxPackageLines)
		}
	}
}

// sources reads the Go files of dir (a path under the module root) that
// are not tests, by path.
func sources(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(moduleRoot(t), dir, "*.go"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no sources in %s (%v): the check would prove nothing", dir, err)
	}
	out := map[string][]byte{}
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[f] = b
	}
	return out
}

// TestTheTabsAndTheCoreKeepNoProcessStateAndPassNoContextValues enforces
// issue 28's rule for the choice of tabs, the composition root and the
// packages it composes: the table of tab leases is a value its owner makes
// (tabs.Leases), never a variable of the package, and what a run's choice
// of tab needs to know is a parameter (tabs.Run), never a value of its
// context. A package-level var is allowed only as an interface guard
// (var _ I = T{}) or a sentinel error (var errX = errors.New(…)).
func TestTheTabsAndTheCoreKeepNoProcessStateAndPassNoContextValues(t *testing.T) {
	root := moduleRoot(t)
	checked := 0
	for _, dir := range []string{"backend/tabs", "backend/core", "backend/jobs", "backend/runs", "backend/ownerbrowser", "backend/logins"} {
		files, err := filepath.Glob(filepath.Join(root, dir, "*.go"))
		if err != nil || len(files) == 0 {
			t.Fatalf("no sources in %s (%v): the check would prove nothing", dir, err)
		}
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			checked++
			af, err := parser.ParseFile(token.NewFileSet(), f, nil, 0)
			if err != nil {
				t.Fatalf("parse %s: %v", f, err)
			}
			name := dir + "/" + filepath.Base(f)
			for _, d := range af.Decls {
				gd, ok := d.(*ast.GenDecl)
				if !ok || gd.Tok != token.VAR {
					continue
				}
				for _, spec := range gd.Specs {
					vs := spec.(*ast.ValueSpec)
					for i, n := range vs.Names {
						if n.Name != "_" && !(i < len(vs.Values) && isErrorsNew(vs.Values[i])) {
							t.Errorf("%s declares the package variable %s: state belongs to a value its owner makes", name, n.Name)
						}
					}
				}
			}
			ast.Inspect(af, func(n ast.Node) bool {
				if sel, ok := n.(*ast.SelectorExpr); ok && sel.Sel.Name == "WithValue" {
					if x, ok := sel.X.(*ast.Ident); ok && x.Name == "context" {
						t.Errorf("%s passes a value in a context: make it a parameter or a field", name)
					}
				}
				return true
			})
		}
	}
	if checked < 10 {
		t.Fatalf("checked %d files: the check would prove nothing", checked)
	}
}

// isErrorsNew reports whether e is a call of errors.New.
func isErrorsNew(e ast.Expr) bool {
	call, ok := e.(*ast.CallExpr)
	if !ok {
		return false
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return false
	}
	x, ok := sel.X.(*ast.Ident)
	return ok && x.Name == "errors" && sel.Sel.Name == "New"
}

// TestPromptStaysPure: package prompt composes and judges prompts without
// I/O beyond its git checks; the user's templates, which live in the
// store, are prompt/templates, so prompt itself never depends on the store.
func TestPromptStaysPure(t *testing.T) {
	const promptPkg = "github.com/ferrydesk/ferry/backend/prompt"
	deps := listDeps(t, "./backend/...")
	ds, ok := deps[promptPkg]
	if !ok {
		t.Fatalf("go list does not know %s", promptPkg)
	}
	for _, d := range ds {
		if d == "github.com/ferrydesk/ferry/backend/store" || strings.HasPrefix(d, "github.com/dgraph-io/badger") {
			t.Errorf("%s depends on %s: the stored templates are prompt/templates", promptPkg, d)
		}
	}
	if _, ok := deps[promptPkg+"/templates"]; !ok {
		t.Errorf("go list does not know %s/templates: the templates moved, update the rule", promptPkg)
	}
}

const (
	providerPkg = "github.com/ferrydesk/ferry/backend/provider"
	artifactPkg = "github.com/ferrydesk/ferry/backend/artifact"
)

// isVendor reports whether pkg is a site's folder under backend/provider
// (not the registry of all vendors, the conformance suite or the
// simulator).
func isVendor(pkg string) bool {
	rest, ok := strings.CutPrefix(pkg, providerPkg+"/")
	if !ok || rest == "" {
		return false
	}
	name, _, _ := strings.Cut(rest, "/")
	switch name {
	case "all", "providertest", "sim":
		return false
	}
	return true
}

// TestTheAppIsAFaceOfTheService enforces that the desktop app is a thin
// face: its files (app/ and its packages, app/internal/...) import from the
// backend only the service layer (service and the records it carries,
// record), errs, config, version, safetext and mcpconfig (two leaves), and
// the one file that builds what the app is a face of (appOwnerFile) may
// import core, ownerbrowser (the owner's long-lived browser), hub and
// hub/client (to find a running owner) as well. Every build of the app is
// checked (the desktop binary's tags, the dev binary's, the default); test
// files are not.
func TestTheAppIsAFaceOfTheService(t *testing.T) {
	t.Parallel()
	const backend = "github.com/ferrydesk/ferry/backend/"
	face := map[string]bool{backend + "service": true, backend + "record": true, backend + "errs": true, backend + "config": true, backend + "version": true, backend + "safetext": true, backend + "mcpconfig": true}
	owner := map[string]bool{backend + "core": true, backend + "ownerbrowser": true, backend + "hub": true, backend + "hub/client": true}
	files := appFiles(t)
	if len(files) < 10 {
		t.Fatalf("found %d files of the app: the check would prove nothing", len(files))
	}
	root := moduleRoot(t)
	sawOwner := false
	for _, f := range files {
		rel, err := filepath.Rel(root, f)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.ToSlash(rel)
		sawOwner = sawOwner || name == appOwnerFile
		for _, imp := range fileImports(t, f) {
			if !strings.HasPrefix(imp, backend) || face[imp] || (name == appOwnerFile && owner[imp]) {
				continue
			}
			t.Errorf("%s imports %s: the app is a face of service.Service (only %s builds it, from core, ownerbrowser and hub)", name, imp, appOwnerFile)
		}
	}
	if !sawOwner {
		t.Errorf("%s is not among the app's files: the construction moved, update the rule", appOwnerFile)
	}
}

// appOwnerFile is the app's one construction file, from the module's root
// (an owner.go in one of app's packages is not it).
const appOwnerFile = "app/owner.go"

// appFiles lists the Go files (not tests) of app/... in every build the
// app has.
func appFiles(t *testing.T) []string {
	t.Helper()
	seen := map[string]bool{}
	for _, tags := range []string{"", "desktop,production,webkit2_41", "dev", "bindings"} {
		cmd := exec.Command("go", "list", "-tags", tags, "-f", `{{$d := .Dir}}{{range .GoFiles}}{{$d}}/{{.}}{{"\n"}}{{end}}`, "./app/...")
		cmd.Dir = moduleRoot(t)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("go list -tags %q ./app/...: %v", tags, err)
		}
		for _, f := range strings.Fields(string(out)) {
			seen[f] = true
		}
	}
	files := make([]string, 0, len(seen))
	for f := range seen {
		files = append(files, f)
	}
	sort.Strings(files)
	return files
}

// fileImports is the import paths of the Go file at path.
func fileImports(t *testing.T, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
	if err != nil {
		t.Fatalf("parse %s: %v", path, err)
	}
	out := make([]string, 0, len(f.Imports))
	for _, imp := range f.Imports {
		p, err := strconv.Unquote(imp.Path.Value)
		if err != nil {
			t.Fatalf("%s: import %s: %v", path, imp.Path.Value, err)
		}
		out = append(out, p)
	}
	return out
}

// TestCLIBuildsWithoutCgo is the promise that `ferry` is a pure Go binary.
func TestCLIBuildsWithoutCgo(t *testing.T) {
	t.Parallel()
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

// listImports is the direct imports of every package of pattern (tests
// not included).
func listImports(t *testing.T, pattern string) map[string][]string {
	t.Helper()
	cmd := exec.Command("go", "list", "-f", `{{.ImportPath}} {{join .Imports " "}}`, pattern)
	cmd.Dir = moduleRoot(t)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v", pattern, err)
	}
	imports := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Fields(line)
		if len(f) > 0 {
			imports[f[0]] = f[1:]
		}
	}
	if len(imports) < 3 {
		t.Fatalf("go list found only %d packages: the check would prove nothing", len(imports))
	}
	return imports
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		t.Fatalf("go env GOMOD: %v", err)
	}
	return filepath.Dir(strings.TrimSpace(string(out)))
}
