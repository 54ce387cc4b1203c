//go:build package

// Package packagetest checks the packages `make package` builds: the
// validators pass on them, the .deb installs, its programs run (the desktop
// window up under Xvfb with the class its desktop entry names), and removing
// it leaves nothing of it behind. It installs into the system, so it runs
// as root (or with sudo -n), only by `make test-package`.
package packagetest

import (
	"archive/tar"
	"bufio"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"
)

const pkg = "ferry"

func dist(t *testing.T, pattern string) string {
	t.Helper()
	m, err := filepath.Glob(filepath.Join("..", "dist", pattern))
	if err != nil || len(m) != 1 {
		t.Fatalf("build/dist/%s: %v %v (run make package first)", pattern, m, err)
	}
	abs, err := filepath.Abs(m[0])
	if err != nil {
		t.Fatal(err)
	}
	return abs
}

// run runs name with args and returns its combined output.
func run(t *testing.T, name string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, name, args...).CombinedOutput()
	return string(out), err
}

// asRoot runs a command that changes the system, as root.
func asRoot(t *testing.T, args ...string) string {
	t.Helper()
	if os.Geteuid() != 0 {
		args = append([]string{"sudo", "-n"}, args...)
	}
	out, err := run(t, args[0], args[1:]...)
	if err != nil {
		t.Fatalf("%s: %v\n%s\n(the install test needs root, or sudo without a password)", strings.Join(args, " "), err, out)
	}
	return out
}

// debFiles lists the regular files and links the .deb installs.
func debFiles(t *testing.T, deb string) []string {
	t.Helper()
	out, err := run(t, "dpkg-deb", "--fsys-tarfile", deb)
	if err != nil {
		t.Fatalf("dpkg-deb --fsys-tarfile: %v", err)
	}
	return tarNames(t, tar.NewReader(strings.NewReader(out)), "./")
}

func tarNames(t *testing.T, tr *tar.Reader, prefix string) []string {
	t.Helper()
	var names []string
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeDir {
			continue
		}
		names = append(names, "/"+strings.TrimPrefix(h.Name, prefix))
	}
	sort.Strings(names)
	return names
}

func TestThePackages(t *testing.T) {
	deb := dist(t, "ferry_*_amd64.deb")
	tgz := dist(t, "ferry-*-linux-amd64.tar.gz")
	files := debFiles(t, deb)

	t.Run("the .deb holds the programs, entry, metainfo, icons, manual and completions", func(t *testing.T) {
		want := []string{"/usr/bin/ferry", "/usr/bin/ferry-desktop",
			"/usr/share/applications/io.github.ferrydesk.Ferry.desktop", "/usr/share/metainfo/io.github.ferrydesk.Ferry.metainfo.xml",
			"/usr/share/icons/hicolor/scalable/apps/io.github.ferrydesk.Ferry.svg",
			"/usr/share/man/man1/ferry.1.gz", "/usr/share/man/man1/ferry-desktop.1.gz",
			"/usr/share/bash-completion/completions/ferry", "/usr/share/zsh/vendor-completions/_ferry",
			"/usr/share/fish/vendor_completions.d/ferry.fish", "/usr/share/doc/ferry/copyright"}
		for _, s := range []string{"16", "24", "32", "48", "64", "128", "256", "512"} {
			want = append(want, "/usr/share/icons/hicolor/"+s+"x"+s+"/apps/io.github.ferrydesk.Ferry.png")
		}
		have := map[string]bool{}
		for _, f := range files {
			have[f] = true
		}
		for _, w := range want {
			if !have[w] {
				t.Errorf("the .deb lacks %s", w)
			}
		}
		info, err := run(t, "dpkg-deb", "-f", deb, "Depends", "Recommends")
		if err != nil || !strings.Contains(info, "libwebkit2gtk-4.1-0") || !strings.Contains(info, "libgtk-3-0") || !strings.Contains(info, "Recommends: chromium") {
			t.Errorf("control fields: %v\n%s", err, info)
		}
	})

	t.Run("the tarball holds the same files", func(t *testing.T) {
		f, err := os.Open(tgz)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		zr, err := gzip.NewReader(f)
		if err != nil {
			t.Fatal(err)
		}
		names := tarNames(t, tar.NewReader(zr), "")
		var inTree []string
		readme := false
		for _, n := range names {
			_, rest, _ := strings.Cut(strings.TrimPrefix(n, "/"), "/")
			if rest == "README.txt" {
				readme = true
				continue
			}
			inTree = append(inTree, "/"+rest)
		}
		sort.Strings(inTree)
		if !readme || strings.Join(inTree, "\n") != strings.Join(files, "\n") {
			t.Errorf("the tarball (README %v) holds\n%s\nthe .deb\n%s", readme, strings.Join(inTree, "\n"), strings.Join(files, "\n"))
		}
	})

	t.Run("the validators pass: desktop-file-validate, appstreamcli, lintian without errors", func(t *testing.T) {
		dir := t.TempDir()
		if out, err := run(t, "dpkg-deb", "-x", deb, dir); err != nil {
			t.Fatalf("dpkg-deb -x: %v\n%s", err, out)
		}
		if out, err := run(t, "desktop-file-validate", filepath.Join(dir, "usr/share/applications/io.github.ferrydesk.Ferry.desktop")); err != nil || strings.Contains(out, "error:") {
			t.Errorf("desktop-file-validate: %v\n%s", err, out)
		}
		if out, err := run(t, "appstreamcli", "validate", "--no-net", filepath.Join(dir, "usr/share/metainfo/io.github.ferrydesk.Ferry.metainfo.xml")); err != nil {
			t.Errorf("appstreamcli validate: %v\n%s", err, out)
		}
		out, err := run(t, "lintian", "--tag-display-limit", "0", deb)
		if err != nil {
			t.Errorf("lintian: %v\n%s", err, out)
		}
		for _, l := range strings.Split(out, "\n") {
			if strings.HasPrefix(l, "E:") {
				t.Errorf("lintian error: %s", l)
			} else if strings.HasPrefix(l, "W:") {
				t.Logf("lintian warning: %s", l)
			}
		}
	})

	t.Run("installed, the programs run and the window comes up; removed, nothing is left", func(t *testing.T) {
		if out, _ := run(t, "dpkg-query", "-W", "-f=${Status}", pkg); strings.Contains(out, "installed") {
			asRoot(t, "dpkg", "--purge", pkg)
		}
		asRoot(t, "dpkg", "-i", deb)
		removed := false
		defer func() {
			if !removed {
				asRoot(t, "dpkg", "--purge", pkg)
			}
		}()
		home := t.TempDir()
		env := append(os.Environ(), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, ".config"),
			"XDG_DATA_HOME="+filepath.Join(home, ".local/share"), "FERRY_DATA_DIR="+filepath.Join(home, "data"))
		cmd := func(name string, args ...string) *exec.Cmd {
			c := exec.Command(name, args...)
			c.Env = env
			return c
		}

		out, err := cmd("/usr/bin/ferry", "version").CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "ferry ") {
			t.Fatalf("ferry version: %v\n%s", err, out)
		}
		out, _ = cmd("/usr/bin/ferry", "doctor", "--json").Output()
		var report map[string]any
		if err := json.Unmarshal(out, &report); err != nil || len(report) == 0 {
			t.Fatalf("ferry doctor --json printed no report: %v\n%s", err, out)
		}
		if man, err := run(t, "man", "-w", "ferry"); err != nil || !strings.Contains(man, "/usr/share/man/man1/ferry.1.gz") {
			t.Errorf("man -w ferry: %v %s", err, man)
		}

		desk := startDesktop(t, cmd, env)
		// The window's class is the desktop entry's StartupWMClass.
		if out, err := run(t, "xdotool", "search", "--sync", "--class", "ferry"); err != nil || strings.TrimSpace(out) == "" {
			t.Errorf("no window of class ferry: %v %s", err, out)
		}
		_ = desk.Process.Signal(os.Interrupt)
		done := make(chan error, 1)
		go func() { done <- desk.Wait() }()
		select {
		case <-done:
		case <-time.After(20 * time.Second):
			_ = desk.Process.Kill()
			<-done
		}

		asRoot(t, "dpkg", "--purge", pkg)
		removed = true
		for _, f := range files {
			if _, err := os.Lstat(f); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s is still there after the package was removed (%v)", f, err)
			}
		}
		if left, _ := filepath.Glob("/var/lib/dpkg/info/" + pkg + ".*"); len(left) != 0 {
			t.Errorf("dpkg still knows %v", left)
		}
		if _, err := os.Stat(filepath.Join(home, "data")); err != nil {
			t.Errorf("the user's data directory is gone with the package: %v", err)
		}
	})
}

// startDesktop starts the installed ferry-desktop and waits until its
// window's frontend is ready. Twice in about fifteen loaded runs of make
// test, GTK could not open the X display (a panic "failed to init GTK")
// that answered a moment later: a display refusing a client is the
// machine's, not the package's, so such a start is tried once more, said
// in the log, while any other end before ready fails.
func startDesktop(t *testing.T, cmd func(string, ...string) *exec.Cmd, env []string) *exec.Cmd {
	t.Helper()
	for attempt := 1; ; attempt++ {
		desk := cmd("/usr/bin/ferry-desktop")
		stderr, err := desk.StderrPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := desk.Start(); err != nil {
			t.Fatal(err)
		}
		ready := make(chan bool, 1)
		var log strings.Builder
		go func() {
			sc := bufio.NewScanner(stderr)
			for sc.Scan() {
				log.WriteString(sc.Text() + "\n")
				if strings.Contains(sc.Text(), `msg="frontend ready"`) {
					ready <- true
				}
			}
			close(ready)
		}()
		select {
		case ok := <-ready:
			if ok {
				return desk
			}
			_ = desk.Wait()
			state, answers := displayState(env)
			if attempt == 1 && answers && strings.Contains(log.String(), "failed to init GTK") {
				t.Logf("ferry-desktop could not open the display, which answers now (%s): starting it once more", state)
				continue
			}
			t.Fatalf("ferry-desktop ended before it was ready:\n%s\n%s", log.String(), state)
		case <-time.After(90 * time.Second):
			t.Fatalf("ferry-desktop was not ready within 90 s:\n%s", log.String())
		}
	}
}

// displayState says which X display env names and whether it answers, for
// a window that did not come up: a display gone or refusing this client is
// the machine's fault, not the package's.
func displayState(env []string) (string, bool) {
	display := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "DISPLAY="); ok {
			display = v
		}
	}
	c := exec.Command("xdotool", "getdisplaygeometry")
	c.Env = env
	out, err := c.CombinedOutput()
	return fmt.Sprintf("DISPLAY=%q; xdotool getdisplaygeometry: %s (%v)", display, strings.TrimSpace(string(out)), err), err == nil
}
