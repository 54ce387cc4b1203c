package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// testBinary is Debian's Chromium, as `make test` installs it.
const testBinary = "/usr/bin/chromium"

func testCtx(t testing.TB, d time.Duration) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	t.Cleanup(cancel)
	return ctx
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
			p, err := Start(ctx, tc.profile, tc.opts...)
			if err == nil {
				p.Kill()
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
	_, err := Start(testCtx(t, 10*time.Second), t.TempDir(), WithBinary(fake), Headless())
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
