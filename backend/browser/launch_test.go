package browser

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/proctree"
)

func TestLaunchAndCloseAFerryBrowser(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	profile := filepath.Join(t.TempDir(), "browser-profile")
	start := time.Now()
	b, err := Launch(ctx, profile, WithBinary(testBinary), Headless())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("launch to connected: %s", time.Since(start))
	if !b.Launched() || b.PID() == 0 {
		t.Fatal("a launched browser must say so and have a pid")
	}
	if !strings.HasPrefix(b.Endpoint(), "ws://127.0.0.1:") {
		t.Fatalf("endpoint %q is not on loopback", b.Endpoint())
	}
	v, err := b.Version(ctx)
	if err != nil || !strings.HasPrefix(v, "Chrome/") {
		t.Fatalf("version %q %v", v, err)
	}

	t.Run("a second launch on the same profile fails at once with browser_launch_failed", func(t *testing.T) {
		start := time.Now()
		b2, err := Launch(ctx, profile, WithBinary(testBinary), Headless())
		if err == nil {
			b2.Close(ctx)
			t.Fatal("two browsers on one profile")
		}
		if !errs.Has(err, errs.BrowserLaunchFailed) || !strings.Contains(err.Error(), "in use") {
			t.Fatalf("error %v", err)
		}
		if time.Since(start) > 5*time.Second {
			t.Fatalf("took %s", time.Since(start))
		}
	})

	pid := b.PID()
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if processAlive(pid) && !isZombie(pid) {
		t.Fatalf("the browser (pid %d) still runs after Close", pid)
	}
	if _, err := os.Stat(filepath.Join(profile, "Default")); err != nil {
		t.Fatalf("the persistent profile was not kept: %v", err)
	}
	if _, err := b.Version(ctx); !errs.Has(err, errs.BrowserDisconnected) {
		t.Fatalf("version after close: %v", err)
	}
}

func isZombie(pid int) bool {
	b, err := os.ReadFile(filepath.Join("/proc", itoa(pid), "stat"))
	if err != nil {
		return true // gone
	}
	f := strings.Fields(string(b))
	return len(f) > 2 && f[2] == "Z"
}

func TestLaunchRefusesBadSetups(t *testing.T) {
	ctx := testCtx(t, 20*time.Second)
	cases := []struct {
		name    string
		profile string
		opts    []Option
		env     map[string]string
		code    errs.Code
	}{
		{"a missing binary is browser_not_found", t.TempDir(), []Option{WithBinary("/nonexistent/chromium"), Headless()}, nil, errs.BrowserNotFound},
		{"an empty profile directory is bad_input", "", []Option{WithBinary(testBinary), Headless()}, nil, errs.BadInput},
		{"remote-allow-origins is refused as bad_input", t.TempDir(), []Option{WithBinary(testBinary), Headless(), WithArgs("--remote-allow-origins=*")}, nil, errs.BadInput},
		{"remote-allow-origins with one dash is refused too", t.TempDir(), []Option{WithBinary(testBinary), Headless(), WithArgs("-remote-allow-origins=*")}, nil, errs.BadInput},
		{"a remote debugging address in capitals is refused", t.TempDir(), []Option{WithBinary(testBinary), Headless(), WithArgs("--Remote-Debugging-Address=0.0.0.0")}, nil, errs.BadInput},
		{"a flag that turns off the same-origin policy is refused", t.TempDir(), []Option{WithBinary(testBinary), Headless(), WithArgs("--disable-web-security")}, nil, errs.BadInput},
		{"another user-data-dir is refused as bad_input", t.TempDir(), []Option{WithBinary(testBinary), Headless(), WithArgs("--user-data-dir=/tmp/x")}, nil, errs.BadInput},
		{"a headful launch without a display is browser_launch_failed", t.TempDir(), []Option{WithBinary(testBinary)},
			map[string]string{"DISPLAY": "", "WAYLAND_DISPLAY": ""}, errs.BrowserLaunchFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			b, err := Launch(ctx, tc.profile, tc.opts...)
			if err == nil {
				b.Close(ctx)
				t.Fatal("launched")
			}
			if got := errs.CodeOf(err); got != tc.code {
				t.Fatalf("error %v, want %s", err, tc.code)
			}
		})
	}
}

func TestLaunchReportsABrowserThatDiesAtStart(t *testing.T) {
	fake := filepath.Join(t.TempDir(), "chromium")
	script := "#!/bin/sh\necho '[: 1: unexpected operator' >&2\necho 'cannot open shared object libfoo.so' >&2\nexit 127\n"
	if err := os.WriteFile(fake, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := Launch(testCtx(t, 10*time.Second), t.TempDir(), WithBinary(fake), Headless())
	if !errs.Has(err, errs.BrowserLaunchFailed) {
		t.Fatalf("error %v", err)
	}
	ev := errs.From(err).Evidence["stderr"]
	if !strings.Contains(ev, "libfoo.so") || strings.Contains(ev, "unexpected operator") {
		t.Fatalf("stderr evidence %q", ev)
	}
}

func TestFindBinary(t *testing.T) {
	t.Run("nothing in PATH is browser_not_found naming every name searched", func(t *testing.T) {
		t.Setenv("PATH", t.TempDir())
		_, err := FindBinary()
		if !errs.Has(err, errs.BrowserNotFound) {
			t.Fatalf("error %v", err)
		}
		for _, n := range binaryNames {
			if !strings.Contains(err.Error(), n) {
				t.Fatalf("%q is not named in %v", n, err)
			}
		}
	})
	t.Run("the first name found in PATH wins", func(t *testing.T) {
		dir := t.TempDir()
		for _, n := range []string{"google-chrome", "chrome"} {
			if err := os.WriteFile(filepath.Join(dir, n), []byte("#!/bin/sh\n"), 0o755); err != nil {
				t.Fatal(err)
			}
		}
		t.Setenv("PATH", dir)
		got, err := FindBinary()
		if err != nil || got != filepath.Join(dir, "google-chrome") {
			t.Fatalf("got %q %v", got, err)
		}
	})
}

func TestBinaryVersion(t *testing.T) {
	t.Run("Debian's chromium reports its version past the wrapper's noise", func(t *testing.T) {
		v, err := BinaryVersion(testCtx(t, 15*time.Second), testBinary)
		if err != nil || !strings.HasPrefix(v, "Chromium ") || strings.Contains(v, "unexpected operator") {
			t.Fatalf("version %q %v", v, err)
		}
	})
	t.Run("an executable that prints no version is browser_launch_failed", func(t *testing.T) {
		fake := filepath.Join(t.TempDir(), "chromium")
		os.WriteFile(fake, []byte("#!/bin/sh\necho hello\n"), 0o755)
		if _, err := BinaryVersion(testCtx(t, 5*time.Second), fake); !errs.Has(err, errs.BrowserLaunchFailed) {
			t.Fatalf("error %v", err)
		}
	})
	t.Run("a missing file is browser_not_found", func(t *testing.T) {
		if _, err := BinaryVersion(testCtx(t, 5*time.Second), "/nonexistent"); !errs.Has(err, errs.BrowserNotFound) {
			t.Fatalf("error %v", err)
		}
	})
}

// userBrowser starts Chromium the way a user would with remote debugging
// on, outside Ferry, and returns its profile directory once
// DevToolsActivePort is written.
func userBrowser(t *testing.T) (profile string, cmd *exec.Cmd) {
	t.Helper()
	profile = t.TempDir()
	cmd = exec.Command(testBinary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
		"--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-quic",
		"--remote-debugging-port=0", "--user-data-dir="+profile, "about:blank")
	tree, err := proctree.Start(cmd)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		tree.Kill()
		_ = cmd.Wait()
		tree.Release()
	})
	deadline := time.Now().Add(20 * time.Second)
	for {
		if b, err := os.ReadFile(filepath.Join(profile, "DevToolsActivePort")); err == nil && strings.Count(string(b), "\n") >= 1 {
			return profile, cmd
		}
		if time.Now().After(deadline) {
			t.Fatal("the user's browser wrote no DevToolsActivePort")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func TestAttachToAUsersBrowserAndDetachWithoutClosingIt(t *testing.T) {
	profile, cmd := userBrowser(t)
	ctx := testCtx(t, 30*time.Second)
	for _, endpoint := range []string{filepath.Join(profile, "DevToolsActivePort"), profile} {
		start := time.Now()
		b, err := Attach(ctx, endpoint)
		if err != nil {
			t.Fatalf("attach via %s: %v", endpoint, err)
		}
		t.Logf("attach: %s", time.Since(start))
		if b.Launched() {
			t.Fatal("an attached browser claims Ferry launched it")
		}
		tabs, err := b.Targets(ctx, nil)
		if err != nil || len(tabs) == 0 {
			t.Fatalf("targets %v %v", tabs, err)
		}
		p, err := b.Page(ctx, tabs[0].ID)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := p.Eval(ctx, `() => 1`); err != nil {
			t.Fatal(err)
		}
		if err := b.Close(ctx); err != nil {
			t.Fatal(err)
		}
		time.Sleep(300 * time.Millisecond)
		if !processAlive(cmd.Process.Pid) || isZombie(cmd.Process.Pid) {
			t.Fatal("detaching closed the user's browser")
		}
	}
	// The ws:// form works too, and still finds the same browser.
	data, _ := os.ReadFile(filepath.Join(profile, "DevToolsActivePort"))
	lines := strings.Split(string(data), "\n")
	b, err := Attach(ctx, "ws://127.0.0.1:"+strings.TrimSpace(lines[0])+strings.TrimSpace(lines[1]))
	if err != nil {
		t.Fatal(err)
	}
	b.Close(ctx)
}

func TestAttachRefusesBadAddresses(t *testing.T) {
	dir := t.TempDir()
	garbled := filepath.Join(dir, "DevToolsActivePort")
	os.WriteFile(garbled, []byte("not-a-port\n/devtools/browser/x\n"), 0o600)
	cases := []struct {
		name, endpoint string
		code           errs.Code
	}{
		{"an address off this machine is bad_input", "ws://192.0.2.1:9222/devtools/browser/x", errs.BadInput},
		{"an http address is bad_input", "http://127.0.0.1:9222", errs.BadInput},
		{"a missing DevToolsActivePort file is bad_input", filepath.Join(dir, "nope"), errs.BadInput},
		{"a garbled DevToolsActivePort file is bad_input", garbled, errs.BadInput},
		{"an empty address is bad_input", "", errs.BadInput},
		{"a closed loopback port is browser_launch_failed", "ws://127.0.0.1:1/devtools/browser/x", errs.BrowserLaunchFailed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b, err := Attach(testCtx(t, 5*time.Second), tc.endpoint)
			if err == nil {
				b.Close(context.Background())
				t.Fatal("attached")
			}
			if got := errs.CodeOf(err); got != tc.code {
				t.Fatalf("error %v, want %s", err, tc.code)
			}
		})
	}
}
