package launch

import (
	"path"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

// searchEnv is everything the browser search reads from the machine, so
// that the search of each platform runs (and is tested) on any platform.
type searchEnv struct {
	goos     string
	getenv   func(string) string
	home     string                       // the user's home directory, "" when unknown
	lookPath func(string) (string, error) // exec.LookPath
	appPath  func(exe string) []string    // Windows' App Paths registrations of exe, HKCU first; nil elsewhere
	isExec   func(string) bool            // an executable regular file
}

// windowsBrowser is a browser as Windows installs it: the executable's
// name (also its App Paths key) and its folder under %ProgramFiles%,
// %ProgramFiles(x86)% or %LocalAppData%.
type windowsBrowser struct{ exe, dir string }

// windowsBrowsers in the order they are preferred. Edge comes last: it is
// on every Windows, so it is the fallback, not a choice over a browser the
// user installed.
var windowsBrowsers = []windowsBrowser{
	{"chrome.exe", `Google\Chrome\Application`},
	{"chrome.exe", `Chromium\Application`},
	{"brave.exe", `BraveSoftware\Brave-Browser\Application`},
	{"msedge.exe", `Microsoft\Edge\Application`},
}

// windowsRoots are the environment variables naming install roots.
var windowsRoots = []string{"ProgramFiles", "ProgramFiles(x86)", "LocalAppData"}

// macApps are the bundles searched on macOS, in order.
var macApps = []string{"Google Chrome", "Chromium", "Brave Browser", "Microsoft Edge"}

// step is one place the search looks: a name in PATH or a file.
type step struct {
	name string // for PATH: the executable name
	file string // otherwise: the candidate path
	from string // where the candidate came from, for the searched list
}

// searchPlan lists, in order, where the search looks on env.goos.
func searchPlan(env searchEnv) []step {
	var plan []step
	switch env.goos {
	case "windows":
		// exec.LookPath adds %PATHEXT% (.exe) itself.
		for _, n := range []string{"chrome", "chromium", "brave", "msedge"} {
			plan = append(plan, step{name: n})
		}
		seen := map[string]bool{}
		for _, b := range windowsBrowsers {
			if !seen[b.exe] && env.appPath != nil {
				seen[b.exe] = true
				for _, p := range env.appPath(b.exe) {
					plan = append(plan, step{file: p, from: `App Paths\` + b.exe})
				}
			}
			for _, root := range windowsRoots {
				if dir := env.getenv(root); dir != "" {
					plan = append(plan, step{file: winJoin(dir, b.dir, b.exe)})
				}
			}
		}
	case "darwin":
		for _, n := range binaryNames {
			plan = append(plan, step{name: n})
		}
		roots := []string{"/Applications"}
		if env.home != "" {
			roots = append(roots, path.Join(env.home, "Applications"))
		}
		for _, app := range macApps {
			for _, root := range roots {
				plan = append(plan, step{file: path.Join(root, app+".app", "Contents", "MacOS", app)})
			}
		}
	default:
		for _, n := range binaryNames {
			plan = append(plan, step{name: n})
		}
	}
	return plan
}

// winJoin joins Windows path parts whatever the platform running the code.
func winJoin(dir string, parts ...string) string {
	out := strings.TrimRight(dir, `\/`)
	for _, p := range parts {
		out += `\` + p
	}
	return out
}

// search walks searchPlan(env) and returns the first executable found.
// Errors: BrowserNotFound naming every place searched, with the
// platform's own fix as its hint.
func search(env searchEnv) (string, error) {
	plan := searchPlan(env)
	var names, files []string
	for _, s := range plan {
		if s.name != "" {
			names = append(names, s.name)
			if p, err := env.lookPath(s.name); err == nil {
				return p, nil
			}
			continue
		}
		label := s.file
		if s.from != "" {
			label += " (" + s.from + ")"
		}
		files = append(files, label)
		if env.isExec(s.file) {
			return s.file, nil
		}
	}
	searched := "PATH for " + strings.Join(names, ", ")
	if len(files) > 0 {
		searched += "; " + strings.Join(files, ", ")
	}
	return "", errs.New(errs.BrowserNotFound, "no Chromium-based browser found (searched %s)", searched).
		WithEvidence("searched", searched).
		WithEvidence("PATH", env.getenv("PATH")).
		WithHint("%s", platform.BrowserInstall(env.goos))
}
