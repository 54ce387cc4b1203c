package browser

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser/browsertest"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/proctree"
)

func TestAttachToAUsersBrowserAndDetachWithoutClosingIt(t *testing.T) {
	profile, cmd := browsertest.StartUser(t, testBinary)
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
		if !proctree.Alive(cmd.Process.Pid) || isZombie(cmd.Process.Pid) {
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

// TestAttachEndsAtTheDeadlineOfABrowserThatDoesNotAnswer: a DevTools port
// that takes the connection but never answers its opening handshake (a
// browser that stopped responding) ends the attach at the caller's
// deadline, with the timeout.
func TestAttachEndsAtTheDeadlineOfABrowserThatDoesNotAnswer(t *testing.T) {
	endpoint := browsertest.SilentEndpoint(t)
	done := make(chan error, 1)
	go func() {
		b, err := Attach(testCtx(t, 500*time.Millisecond), endpoint)
		if err == nil {
			b.Close(context.Background())
		}
		done <- err
	}()
	select {
	case err := <-done:
		if !errs.Has(err, errs.Timeout) {
			t.Fatalf("attach: %v, want the timeout", err)
		}
	case <-time.After(time.Minute): // only a hang gets here
		t.Fatal("attach still waits for the handshake a minute after its deadline")
	}
}
