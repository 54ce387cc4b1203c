//go:build wine

// Package windowstest runs Ferry's Windows build here, under Wine: the
// backend packages' own tests cross-compiled for windows/amd64 (packages
// that need no browser, or the part of them that needs none), and ferry.exe
// end to end against the simulator through a Linux Chromium it attaches to,
// with its data and settings on Windows paths. It runs only by
// `make test-windows`, which prepares the Wine prefix
// (build/windows/wine/prefix.sh) and passes it in the environment:
//
//	WINEPREFIX          the private prefix of this run
//	FERRY_WINE          the wine64 loader
//	FERRY_WINE_OVERLAY  the `go build -overlay` file for Wine 8's gap in
//	                    os.RemoveAll (build/windows/wine/overlay.sh)
//
// What cannot run here is said in docs/status.md ("Windows under Wine: what is
// tested here"): the WebView2 window and anything on macOS.
package windowstest

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var (
	// root is the repository's top directory.
	root string
	// bin holds what TestMain built: ferry.exe, the Linux ferry it is
	// compared with, and the test binaries in bin/tests.
	bin string
	// wine is the wine64 loader; prefix the Wine prefix of this run.
	wine, prefix string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	wine, prefix = os.Getenv("FERRY_WINE"), os.Getenv("WINEPREFIX")
	overlay := os.Getenv("FERRY_WINE_OVERLAY")
	if wine == "" || prefix == "" || overlay == "" {
		fmt.Fprintln(os.Stderr, "windowstest: FERRY_WINE, WINEPREFIX and FERRY_WINE_OVERLAY are not set: run `make test-windows`")
		return 1
	}
	if _, err := os.Stat(filepath.Join(prefix, "drive_c", "windows", "system32", "bcryptprimitives.dll")); err != nil {
		fmt.Fprintf(os.Stderr, "windowstest: the prefix %s has no bcryptprimitives.dll shim (%v): run `make test-windows`\n", prefix, err)
		return 1
	}
	var err error
	if root, err = filepath.Abs(filepath.Join("..", "..")); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if bin, err = os.MkdirTemp("", "ferry-windowstest-"); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer os.RemoveAll(bin)
	if err := buildAll(overlay); err != nil {
		fmt.Fprintln(os.Stderr, "windowstest:", err)
		return 1
	}
	return m.Run()
}

// buildAll builds the test binaries, ferry.exe and the Linux ferry at the
// same time (the go command shares its cache between them).
func buildAll(overlay string) error {
	win := []string{"GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0"}
	pkgs := make([]string, len(suites))
	for i, s := range suites {
		pkgs[i] = "./" + s.path()
	}
	builds := []struct {
		env  []string
		args []string
	}{
		{win, append([]string{"test", "-c", "-vet=off", "-overlay", overlay, "-o", filepath.Join(bin, "tests") + string(filepath.Separator)}, pkgs...)},
		{win, []string{"build", "-overlay", overlay, "-o", filepath.Join(bin, "ferry.exe"), "./backend/cmd/ferry"}},
		{[]string{"CGO_ENABLED=0"}, []string{"build", "-o", filepath.Join(bin, "ferry"), "./backend/cmd/ferry"}},
	}
	errc := make([]error, len(builds))
	var wg sync.WaitGroup
	for i, b := range builds {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command("go", b.args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), b.env...)
			if out, err := cmd.CombinedOutput(); err != nil {
				errc[i] = fmt.Errorf("go %s: %v\n%s", strings.Join(b.args, " "), err, out)
			}
		}()
	}
	wg.Wait()
	for _, err := range errc {
		if err != nil {
			return err
		}
	}
	return nil
}

// wineEnv is this process's environment for a Windows program: none of the
// user's Ferry settings, Wine quiet and headless (console programs need no
// display), the run's prefix.
func wineEnv(extra ...string) []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FERRY_") && !strings.HasPrefix(kv, "DISPLAY=") && !strings.HasPrefix(kv, "WAYLAND_DISPLAY=") {
			env = append(env, kv)
		}
	}
	return append(append(env, "WINEDEBUG=-all", "DISPLAY=", "WINEPREFIX="+prefix), extra...)
}

// result is how a program ended.
type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

// runWine runs the Windows program exe with args under Wine in dir and
// waits for it; the bound only catches a hang.
func runWine(t *testing.T, bound time.Duration, dir string, env []string, exe string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), bound)
	defer cancel()
	cmd := exec.CommandContext(ctx, wine, append([]string{exe}, args...)...)
	cmd.Dir, cmd.Env = dir, wineEnv(env...)
	return wait(ctx, t, cmd)
}

// runLinux runs the Linux ferry with args, for what ferry.exe is compared
// with.
func runLinux(t *testing.T, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, filepath.Join(bin, "ferry"), args...)
	home := t.TempDir()
	cmd.Env = append(wineEnv(env...), "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
	return wait(ctx, t, cmd)
}

// wait runs cmd, which ctx bounds, and returns how it ended; it fails t
// when cmd cannot start or ctx ended it.
func wait(ctx context.Context, t *testing.T, cmd *exec.Cmd) result {
	t.Helper()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if ee, ok := err.(*exec.ExitError); ok && ctx.Err() == nil {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run %s: %v (%v)\nstdout %s\nstderr %s", strings.Join(cmd.Args, " "), err, ctx.Err(), r.stdout, r.stderr)
	}
	return r
}

// winDir is a new directory in the prefix where a Windows user's data would
// be (C:\users\NAME\AppData\Local\…), by its two names.
type winDir struct{ win, linux string }

// newWinDir makes a winDir whose name starts with name (spaces welcome) and
// removes it when t ends.
func newWinDir(t *testing.T, name string) winDir {
	t.Helper()
	users, err := os.ReadDir(filepath.Join(prefix, "drive_c", "users"))
	if err != nil {
		t.Fatal(err)
	}
	var user string
	for _, u := range users {
		if u.IsDir() && u.Name() != "Public" {
			user = u.Name()
		}
	}
	local := filepath.Join(prefix, "drive_c", "users", user, "AppData", "Local")
	if user == "" || os.MkdirAll(local, 0o700) != nil {
		t.Fatalf("no user profile in %s", filepath.Join(prefix, "drive_c", "users"))
	}
	dir, err := os.MkdirTemp(local, name+" ")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return winDir{win: `C:\users\` + user + `\AppData\Local\` + filepath.Base(dir), linux: dir}
}

// linuxPath is where the Windows path p (C:\…, in this prefix) is here.
func linuxPath(t *testing.T, p string) string {
	t.Helper()
	if len(p) < 3 || !strings.EqualFold(p[:3], `C:\`) {
		t.Fatalf("%q is not a path on drive C:", p)
	}
	return filepath.Join(prefix, "drive_c", filepath.FromSlash(strings.ReplaceAll(p[3:], `\`, "/")))
}
