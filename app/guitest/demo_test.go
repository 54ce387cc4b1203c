//go:build gui

package guitest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/go-rod/rod"
)

// treeHash describes a directory tree: every entry's path, type, mode, size,
// modification time and, for a file, the sha256 of its bytes, one line each.
func treeHash(t *testing.T, root string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		line := fmt.Sprintf("%s %s %d %d", rel, fi.Mode(), fi.Size(), fi.ModTime().UnixNano())
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, err := os.Readlink(p)
			if err != nil {
				return err
			}
			line += " -> " + target
		case fi.Mode().IsRegular():
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatalf("hash %s: %v", root, err)
	}
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

// processesNaming lists the live processes (zombies aside) whose command
// line contains s, as "pid: command line".
func processesNaming(s string) []string {
	var out []string
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		pid, err := strconv.Atoi(e.Name())
		if err != nil || pid == os.Getpid() {
			continue
		}
		cmd, err := os.ReadFile(filepath.Join("/proc", e.Name(), "cmdline"))
		if err != nil || !strings.Contains(string(cmd), s) || zombie(pid) {
			continue
		}
		out = append(out, fmt.Sprintf("%d: %s", pid, strings.ReplaceAll(string(cmd), "\x00", " ")))
	}
	return out
}

// zombie reports whether pid has exited and waits to be reaped.
func zombie(pid int) bool {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return false
	}
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	return i > 0 && i+2 < len(s) && s[i+2] == 'Z'
}

// running reports whether pid is a live process.
func running(pid int) bool {
	if err := syscall.Kill(pid, 0); err != nil && err != syscall.EPERM {
		return false
	}
	return !zombie(pid)
}

var demoStartedRE = regexp.MustCompile(`msg="demo started" dir=(\S+) sim=(\d+)`)

// TestDemo starts the desktop with --demo for a user whose data directory
// holds a store, settings and a file of their own, runs a broadcast to two
// sites and a code-mode run that brings back a verified zip against the
// built-in simulator, leaves the demo with its banner's button, and checks
// that the user's directories are untouched and that nothing of the demo
// (its directory, the simulator, its browser) is left.
func TestDemo(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	// The ferry CLI beside the app, as the packages install them: the demo
	// runs its simulator.
	build := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), "ferry"), "./backend/cmd/ferry")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the ferry CLI: %v\n%s", err, out)
	}
	b := launchBrowser(t)
	shots := t.TempDir()

	// The user: settings, a store with history, artifacts and a file of
	// their own in the data directory.
	dir := t.TempDir()
	user := filepath.Join(dir, "data")
	writeSettings(t, dir, "light")
	seedHistory(t, user)
	if err := os.WriteFile(filepath.Join(user, "marker.txt"), []byte("the user's own file\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	home := filepath.Join(dir, "home")
	// The harness makes the cache directory for WebKit; make it before the
	// first look, so that only the demo's doing counts.
	if err := os.MkdirAll(filepath.Join(home, ".cache"), 0o700); err != nil {
		t.Fatal(err)
	}
	watched := []string{user, home}
	before := map[string]string{}
	for _, w := range watched {
		before[w] = treeHash(t, w)
	}

	app := startDevApp(t, bin, dir, "--demo")
	m := demoStartedRE.FindStringSubmatch(app.Log())
	if m == nil {
		t.Fatalf("the demo did not log where it runs:\n%s", app.Log())
	}
	demoDir := m[1]
	simPID, _ := strconv.Atoi(m[2])
	if !strings.HasPrefix(filepath.Base(demoDir), "ferry-demo-") || strings.HasPrefix(demoDir, dir) {
		t.Fatalf("the demo runs in %s", demoDir)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	page := openShell(t, b, app.url).Context(ctx)

	t.Run("the banner says it is a demo and the window holds none of the user's data", func(t *testing.T) {
		banner := page.MustElement(`[data-testid=demo-banner]`).MustText()
		if !strings.Contains(banner, "Demo: Ferry is talking to a built-in simulator; nothing leaves this machine") || !strings.Contains(banner, "Leave the demo") {
			t.Errorf("the banner reads %q", banner)
		}
		st := evalJSON(t, page, `() => window.go.app.System.Status()`)
		if got := str(st["dataDir"]); !strings.HasPrefix(got, demoDir+"/") {
			t.Errorf("the demo's data directory is %s, want under %s", got, demoDir)
		}
		list := evalJSON(t, page, `() => window.go.app.Sessions.List('', '', '', 50)`)
		if n := fmt.Sprint(list["total"]); n != "0" {
			t.Errorf("the demo lists the user's history: %v", list)
		}
		if !running(simPID) {
			t.Fatalf("the simulator (pid %d) is not running", simPID)
		}
	})

	t.Run("a broadcast to two sites answers in both", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=compose]`).MustClick()
		waitTitle(t, page, "Compose")
		page.MustWait(`() => [...document.querySelectorAll('[data-testid=compose-site] option')].some(o => o.value === 'chatgpt')`)
		page.MustElement(`[data-testid=mode-broadcast]`).MustClick()
		page.MustElement(`[data-testid=broadcast-sites] input[data-site=claude]`).MustClick()
		page.MustWait(`() => [...document.querySelectorAll('[data-testid=broadcast-sites] input:checked')].map(i => i.dataset.site).sort().join() === 'chatgpt,claude'`)
		page.MustElement(`[data-testid=prompt]`).MustInput("Compare river ferries and bridges")
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=live-run]').length === 2`)
		states := waitRunEnded(t, page, 2, 120*time.Second)
		if strings.Join(states, " ") != "done done" {
			t.Fatalf("broadcast runs ended %v: %s", states, page.MustElement(`[data-testid=runs]`).MustText())
		}
		if n := page.MustEval(`() => [...document.querySelectorAll('[data-testid=live-run] [data-testid=answer]')].filter(a => a.textContent.includes('river ferries')).length`).Int(); n != 2 {
			t.Errorf("%d columns show an answer about the prompt, want 2", n)
		}
		if len(processesNaming(demoDir)) == 0 {
			t.Error("no browser runs on the demo's profile")
		}
		page.MustEval(`() => window.scrollTo(0, 0)`)
		savePageShot(t, page, shots, "demo.png")
	})

	t.Run("a code-mode run brings back a verified zip to drag out", func(t *testing.T) {
		page.MustElement(`[data-testid=mode-site]`).MustClick()
		page.MustElement(`[data-testid=compose-site]`).MustSelect("ChatGPT")
		page.MustElement(`[data-testid=code-summary]`).MustClick()
		page.MustElement(`[data-testid=code-mode]`).MustClick()
		// A plain task, no simulator directive: the demo's simulator
		// answers a code-mode prompt with its zip, as ChatGPT does.
		page.MustElement(`[data-testid=prompt]`).MustSelectAllText().MustInput("Build a greeting CLI")
		page.MustElement(`[data-testid=send]`).MustClick()
		page.MustWait(`() => document.querySelectorAll('[data-testid=live-run]').length === 1`)
		states := waitRunEnded(t, page, 1, 120*time.Second)
		if states[0] != "done" {
			t.Fatalf("the code run ended %s: %s", states[0], page.MustElement(`[data-testid=live-run]`).MustText())
		}
		if arts := page.MustElement(`[data-testid=run-artifacts]`).MustText(); !strings.Contains(arts, ".zip") {
			t.Errorf("the run lists artifacts %q", arts)
		}
		page.MustElement(`[role=tab][data-view=artifacts]`).MustClick()
		waitTitle(t, page, "Artifacts")
		card := page.MustElement(`[data-testid=artifact][data-status=verified]`)
		if d := card.MustAttribute("draggable"); d == nil || *d != "true" {
			t.Errorf("the run's zip is not draggable: %v", d)
		}
		uri := card.MustEval(`() => {
			const dt = new DataTransfer();
			this.dispatchEvent(new DragEvent('dragstart', {bubbles: true, cancelable: true, dataTransfer: dt}));
			return dt.getData('text/uri-list');
		}`).Str()
		if !strings.HasPrefix(uri, "file://"+demoDir+"/") || !strings.HasSuffix(uri, ".zip") {
			t.Errorf("dragging the zip carries %q, want a zip in the demo's directory", uri)
		}
	})

	t.Run("History shows the demo's runs", func(t *testing.T) {
		page.MustElement(`[role=tab][data-view=history]`).MustClick()
		waitTitle(t, page, "History")
		if err := page.Timeout(eventWithin).Wait(rod.Eval(`() => document.querySelectorAll('[data-testid=history-list] [role=option]').length === 3`)); err != nil {
			t.Errorf("History does not list the demo's three runs: %v\n%s", err, page.MustElement(`[data-testid=history-list]`).MustText())
		}
	})

	t.Run("Leave the demo stops the simulator and the browser, removes its directory and exits", func(t *testing.T) {
		page.MustElement(`[data-testid=leave-demo]`).MustClick()
		code, err := app.waitExit(60 * time.Second)
		if err != nil {
			t.Fatal(err)
		}
		if code != 0 {
			t.Errorf("exit status %d after leaving the demo, want 0", code)
		}
		if !strings.Contains(app.Log(), `msg="demo left"`) {
			t.Errorf("the app did not log leaving the demo:\n%s", app.Log())
		}
		if _, err := os.Stat(demoDir); !os.IsNotExist(err) {
			t.Errorf("the demo's directory %s is still there: %v", demoDir, err)
		}
		if running(simPID) {
			t.Errorf("the simulator (pid %d) still runs", simPID)
		}
		if left := processesNaming(demoDir); len(left) > 0 {
			t.Errorf("processes of the demo still run:\n%s", strings.Join(left, "\n"))
		}
		for _, w := range watched {
			if after := treeHash(t, w); after != before[w] {
				t.Errorf("%s changed during the demo:\nbefore:\n%s\nafter:\n%s", w, before[w], after)
			}
		}
	})
	t.Logf("screenshots in %s", shots)
}

// TestDemoEndsWithItsWindow closes the demo as a session manager does
// (SIGTERM to the process the user started) while its browser runs: the
// window closes normally and nothing of the demo is left.
func TestDemoEndsWithItsWindow(t *testing.T) {
	t.Parallel()
	requireDisplay(t)
	requireFrontendBuilt(t)
	bin := buildApp(t, devTags)
	build := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(bin), "ferry"), "./backend/cmd/ferry")
	build.Dir = repoRoot(t)
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the ferry CLI: %v\n%s", err, out)
	}
	b := launchBrowser(t)
	dir := t.TempDir()
	writeSettings(t, dir, "light")
	user := filepath.Join(dir, "data")
	before := treeHash(t, user)

	app := startDevApp(t, bin, dir, "--demo")
	m := demoStartedRE.FindStringSubmatch(app.Log())
	if m == nil {
		t.Fatalf("the demo did not log where it runs:\n%s", app.Log())
	}
	demoDir := m[1]
	simPID, _ := strconv.Atoi(m[2])
	page := openShell(t, b, app.url)
	page.MustElement(`[data-testid=demo-banner]`)
	st := evalJSON(t, page, `() => window.go.app.Tabs.Connect()`)
	if str(st["status"]) != "connected" || len(processesNaming(demoDir)) == 0 {
		t.Fatalf("the demo's browser did not start: %v", st)
	}
	app.stop(t) // SIGTERM, exit status 0
	if _, err := os.Stat(demoDir); !os.IsNotExist(err) {
		t.Errorf("the demo's directory %s is still there: %v", demoDir, err)
	}
	if running(simPID) {
		t.Errorf("the simulator (pid %d) still runs", simPID)
	}
	if left := processesNaming(demoDir); len(left) > 0 {
		t.Errorf("processes of the demo still run:\n%s", strings.Join(left, "\n"))
	}
	if after := treeHash(t, user); after != before {
		t.Errorf("the user's data directory changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
}
