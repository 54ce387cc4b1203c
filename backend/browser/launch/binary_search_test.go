package launch

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// fakeMachine is a searchEnv over a set of files, PATH entries and App
// Paths registrations, for any platform.
type fakeMachine struct {
	goos     string
	env      map[string]string
	home     string
	files    []string            // executables present
	inPath   map[string]string   // name → path found in PATH
	appPaths map[string][]string // exe → registered paths
}

func (m fakeMachine) searchEnv() searchEnv {
	files := map[string]bool{}
	for _, f := range m.files {
		files[f] = true
	}
	env := searchEnv{
		goos:   m.goos,
		getenv: func(k string) string { return m.env[k] },
		home:   m.home,
		lookPath: func(n string) (string, error) {
			if p, ok := m.inPath[n]; ok {
				return p, nil
			}
			return "", exec.ErrNotFound
		},
		isExec: func(p string) bool { return files[p] },
	}
	if m.goos == "windows" {
		env.appPath = func(exe string) []string { return m.appPaths[exe] }
	}
	return env
}

var winEnv = map[string]string{
	"ProgramFiles":      `C:\Program Files`,
	"ProgramFiles(x86)": `C:\Program Files (x86)`,
	"LocalAppData":      `C:\Users\ann\AppData\Local`,
	"PATH":              `C:\Windows\system32;C:\Windows`,
}

func TestBrowserSearchFindsEachPlatformsBrowsers(t *testing.T) {
	cases := []struct {
		name    string
		machine fakeMachine
		want    string
	}{
		{name: "windows: only Edge, in Program Files (x86) as Windows ships it",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files: []string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`}},
			want: `C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
		{name: "windows: only Edge, registered in App Paths in a folder of its own",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files:    []string{`D:\Apps\Edge\msedge.exe`},
				appPaths: map[string][]string{"msedge.exe": {`D:\Apps\Edge\msedge.exe`}}},
			want: `D:\Apps\Edge\msedge.exe`},
		{name: "windows: Chrome installed for the user only, under LocalAppData",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files: []string{`C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`,
					`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`}},
			want: `C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`},
		{name: "windows: Chrome in Program Files is preferred over Edge",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files: []string{`C:\Program Files\Google\Chrome\Application\chrome.exe`,
					`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`}},
			want: `C:\Program Files\Google\Chrome\Application\chrome.exe`},
		{name: "windows: Chrome's App Paths registration is used before the folders",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files:    []string{`E:\Chrome\chrome.exe`, `C:\Program Files\Google\Chrome\Application\chrome.exe`},
				appPaths: map[string][]string{"chrome.exe": {`E:\Chrome\chrome.exe`}}},
			want: `E:\Chrome\chrome.exe`},
		{name: "windows: a registration whose file is gone is passed over",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files:    []string{`C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
				appPaths: map[string][]string{"chrome.exe": {`E:\Gone\chrome.exe`}}},
			want: `C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`},
		{name: "windows: Brave under Program Files",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files: []string{`C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe`}},
			want: `C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe`},
		{name: "windows: Chromium for the user",
			machine: fakeMachine{goos: "windows", env: winEnv,
				files: []string{`C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`}},
			want: `C:\Users\ann\AppData\Local\Chromium\Application\chrome.exe`},
		{name: "windows: a browser in PATH comes first",
			machine: fakeMachine{goos: "windows", env: winEnv,
				inPath: map[string]string{"msedge": `C:\bin\msedge.exe`},
				files:  []string{`C:\Program Files\Google\Chrome\Application\chrome.exe`}},
			want: `C:\bin\msedge.exe`},
		{name: "macos: Chrome in /Applications",
			machine: fakeMachine{goos: "darwin", home: "/Users/ann",
				files: []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}},
			want: "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{name: "macos: Chrome dragged into ~/Applications",
			machine: fakeMachine{goos: "darwin", home: "/Users/ann",
				files: []string{"/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"}},
			want: "/Users/ann/Applications/Google Chrome.app/Contents/MacOS/Google Chrome"},
		{name: "macos: only Edge",
			machine: fakeMachine{goos: "darwin", home: "/Users/ann",
				files: []string{"/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"}},
			want: "/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
		{name: "macos: only Brave in ~/Applications",
			machine: fakeMachine{goos: "darwin", home: "/Users/ann",
				files: []string{"/Users/ann/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"}},
			want: "/Users/ann/Applications/Brave Browser.app/Contents/MacOS/Brave Browser"},
		{name: "macos: Chromium from Homebrew's cask",
			machine: fakeMachine{goos: "darwin", home: "/Users/ann",
				files: []string{"/Applications/Chromium.app/Contents/MacOS/Chromium"}},
			want: "/Applications/Chromium.app/Contents/MacOS/Chromium"},
		{name: "linux: brave-browser in PATH",
			machine: fakeMachine{goos: "linux", inPath: map[string]string{"brave-browser": "/usr/bin/brave-browser"}},
			want:    "/usr/bin/brave-browser"},
		{name: "linux: microsoft-edge-stable in PATH",
			machine: fakeMachine{goos: "linux", inPath: map[string]string{"microsoft-edge-stable": "/usr/bin/microsoft-edge-stable"}},
			want:    "/usr/bin/microsoft-edge-stable"},
		{name: "linux: chromium before google-chrome",
			machine: fakeMachine{goos: "linux", inPath: map[string]string{"google-chrome": "/usr/bin/google-chrome", "chromium": "/usr/bin/chromium"}},
			want:    "/usr/bin/chromium"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := search(c.machine.searchEnv())
			if err != nil || got != c.want {
				t.Fatalf("got %q, %v; want %q", got, err, c.want)
			}
		})
	}
}

func TestBrowserSearchNotFoundNamesThePlatformsFix(t *testing.T) {
	cases := []struct {
		machine      fakeMachine
		wantSearched []string
		wantHint     []string
		notInHint    []string
	}{
		{machine: fakeMachine{goos: "windows", env: winEnv},
			wantSearched: []string{"msedge", `C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe`,
				`C:\Users\ann\AppData\Local\Google\Chrome\Application\chrome.exe`,
				`C:\Program Files\BraveSoftware\Brave-Browser\Application\brave.exe`},
			wantHint:  []string{"winget", "Edge", `--chromium "C:\`, `msedge.exe"`},
			notInHint: []string{"apt-get", "brew"}},
		{machine: fakeMachine{goos: "darwin", home: "/Users/ann"},
			wantSearched: []string{"/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
				"/Users/ann/Applications/Microsoft Edge.app/Contents/MacOS/Microsoft Edge"},
			wantHint:  []string{"/Applications", "brew install --cask"},
			notInHint: []string{"apt-get", "winget"}},
		{machine: fakeMachine{goos: "linux"},
			wantSearched: []string{"chromium", "google-chrome", "brave-browser", "microsoft-edge"},
			wantHint:     []string{"apt-get install chromium"},
			notInHint:    []string{"winget", "brew"}},
	}
	for _, c := range cases {
		t.Run(c.machine.goos, func(t *testing.T) {
			_, err := search(c.machine.searchEnv())
			var e *errs.Envelope
			if !errors.As(err, &e) || e.Code != errs.BrowserNotFound {
				t.Fatalf("error %v", err)
			}
			for _, w := range c.wantSearched {
				if !strings.Contains(e.Evidence["searched"], w) {
					t.Errorf("searched list lacks %q: %s", w, e.Evidence["searched"])
				}
			}
			for _, w := range c.wantHint {
				if !strings.Contains(e.RetryHint, w) {
					t.Errorf("hint lacks %q: %s", w, e.RetryHint)
				}
			}
			for _, w := range c.notInHint {
				if strings.Contains(e.RetryHint, w) {
					t.Errorf("hint names another platform's %q: %s", w, e.RetryHint)
				}
			}
		})
	}
}
