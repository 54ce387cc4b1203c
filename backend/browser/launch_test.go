package browser

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/proctree"
)

func TestLaunchAndCloseAFerryBrowser(t *testing.T) {
	ctx := testCtx(t, 60*time.Second)
	profile := filepath.Join(t.TempDir(), "browser-profile")
	start := time.Now()
	b, err := Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
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
		b2, err := Launch(ctx, profile, launch.WithBinary(testBinary), launch.Headless())
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
	if proctree.Alive(pid) && !isZombie(pid) {
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
