package browser

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/go-rod/rod/lib/proto"

	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/errs"
)

// neverResolves is a promise the page never settles: without Ferry's own
// watch a call awaiting it would wait until its deadline.
const neverResolves = `() => { window.__evaluating = true; return new Promise(() => {}); }`

// waitEvaluating returns once the never-resolving evaluate is running in
// the page, so the action under test surely happens during it.
func waitEvaluating(t *testing.T, p *Page) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		var on bool
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := p.EvalInto(ctx, &on, `() => window.__evaluating === true`)
		cancel()
		if err == nil && on {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatal("the evaluate never started")
}

type pending struct {
	err     error
	elapsed time.Duration
}

// evalInBackground starts an evaluate that never finishes by itself.
func evalInBackground(p *Page, deadline time.Duration) <-chan pending {
	out := make(chan pending, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), deadline)
		defer cancel()
		start := time.Now()
		_, err := p.Eval(ctx, neverResolves)
		out <- pending{err, time.Since(start)}
	}()
	return out
}

func TestEndingsComeBackAsEnvelopesWithinTheDeadline(t *testing.T) {
	const deadline = 8 * time.Second
	cases := []struct {
		name string
		want errs.Code
		do   func(t *testing.T, p *Page)
	}{
		{"a crashed tab fails the call in flight with target_crashed", errs.TargetCrashed, func(t *testing.T, p *Page) {
			// Page.crash never answers: the renderer is gone before it can.
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
			defer cancel()
			_ = p.Exec(ctx, "Page.crash", proto.PageCrash{}, nil)
		}},
		{"a navigation during an evaluate fails it with navigation_aborted", errs.NavigationAborted, func(t *testing.T, p *Page) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := p.Exec(ctx, "Page.navigate", proto.PageNavigate{URL: fixture.URL + "/slow.html"}, nil); err != nil {
				t.Errorf("navigate: %v", err)
			}
		}},
		{"a closed tab fails the call in flight with target_not_found", errs.TargetNotFound, func(t *testing.T, p *Page) {
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			if err := shared.Call(ctx, "close", "Target.closeTarget", proto.TargetCloseTarget{TargetID: p.id}, nil); err != nil {
				t.Errorf("close: %v", err)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := newTab(t, "/blank.html")
			res := evalInBackground(p, deadline)
			waitEvaluating(t, p)
			tc.do(t, p)
			select {
			case r := <-res:
				if got := errs.CodeOf(r.err); got != tc.want {
					t.Fatalf("error %v (code %q), want code %q", r.err, got, tc.want)
				}
				if r.elapsed >= deadline {
					t.Fatalf("returned after %s, not before the %s deadline", r.elapsed, deadline)
				}
				t.Logf("returned %s after %s", tc.want, r.elapsed)
			case <-time.After(deadline + 2*time.Second):
				t.Fatal("the call hung past its deadline")
			}
		})
	}
}

// crash makes the tab's renderer crash and waits until Ferry has noticed.
func crash(t *testing.T, p *Page) {
	t.Helper()
	cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	_ = p.Exec(cctx, "Page.crash", proto.PageCrash{}, nil)
	cancel()
	deadline := time.Now().Add(5 * time.Second)
	for p.Err() == nil && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
}

func TestCallsAfterACrashFailAtOnce(t *testing.T) {
	p := newTab(t, "/blank.html")
	ctx := testCtx(t, 10*time.Second)
	crash(t, p)
	start := time.Now()
	_, err := p.Eval(ctx, `() => 1`)
	if !errs.Has(err, errs.TargetCrashed) || time.Since(start) > time.Second {
		t.Fatalf("eval on a crashed tab: %v after %s", err, time.Since(start))
	}
}

func TestAKilledBrowserFailsCallsWithBrowserDisconnected(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	b, err := Launch(ctx, t.TempDir(), launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	p, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	const deadline = 8 * time.Second
	res := evalInBackground(p, deadline)
	waitEvaluating(t, p)
	killPID(t, b.PID())
	select {
	case r := <-res:
		if !errs.Has(r.err, errs.BrowserDisconnected) {
			t.Fatalf("error %v, want browser_disconnected", r.err)
		}
		t.Logf("browser_disconnected after %s", r.elapsed)
	case <-time.After(deadline + 2*time.Second):
		t.Fatal("the call hung past its deadline")
	}
	if _, err := b.Version(ctx); !errs.Has(err, errs.BrowserDisconnected) {
		t.Fatalf("version after the kill: %v", err)
	}
	if _, err := b.Page(ctx, p.ID()); !errs.Has(err, errs.BrowserDisconnected) {
		t.Fatalf("page after the kill: %v", err)
	}
	select {
	case <-b.Done():
	default:
		t.Fatal("Done is still open after the browser died")
	}
}

// Lost tells a tab that still works (nil, after its grace), a crashed tab
// (target_crashed) and a killed browser (browser_disconnected, also for a
// tab whose own end it reports).
func TestLostTellsAWorkingTabACrashedTabAndAKilledBrowser(t *testing.T) {
	ctx := testCtx(t, 30*time.Second)
	b, err := Launch(ctx, t.TempDir(), launch.WithBinary(testBinary), launch.Headless())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = b.Close(context.Background()) })
	alive, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	crashed, err := b.OpenTab(ctx, "about:blank")
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := alive.Lost(ctx, 200*time.Millisecond); err != nil || time.Since(start) < 200*time.Millisecond {
		t.Fatalf("a working tab: %v after %s, want nil after the grace", err, time.Since(start))
	}
	crash(t, crashed)
	if err := crashed.Lost(ctx, 0); !errs.Has(err, errs.TargetCrashed) {
		t.Fatalf("a crashed tab: %v, want target_crashed", err)
	}
	killPID(t, b.PID())
	start = time.Now()
	if err := alive.Lost(ctx, 5*time.Second); !errs.Has(err, errs.BrowserDisconnected) || time.Since(start) > 3*time.Second {
		t.Fatalf("a killed browser: %v after %s, want browser_disconnected at once", err, time.Since(start))
	}
	if err := crashed.Lost(ctx, 0); !errs.Has(err, errs.BrowserDisconnected) {
		t.Fatalf("the crashed tab of a killed browser: %v, want browser_disconnected", err)
	}
}

// killPID ends the process pid at once, as a crash would (SIGKILL on
// Unix, TerminateProcess on Windows).
func killPID(t *testing.T, pid int) {
	t.Helper()
	p, err := os.FindProcess(pid)
	if err == nil {
		err = p.Kill()
	}
	if err != nil {
		t.Fatal(err)
	}
}
