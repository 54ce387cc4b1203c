package ownerbrowser

import (
	"context"
	"errors"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// processAlive reports whether pid names a live process (not a zombie we
// would have reaped: the browser package waits for its children).
func processAlive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}

func TestOwnerBrowser(t *testing.T) {
	t.Run("a browser that cannot start leaves the reason in the state", func(t *testing.T) {
		m := New(func() config.BrowserSettings {
			return config.BrowserSettings{Binary: "/nonexistent/chromium", Headless: true}
		}, t.TempDir(), nil)
		if _, err := m.Get(context.Background()); err == nil {
			t.Fatal("a missing binary started")
		}
		st := m.State()
		if st.Status != service.BrowserDisconnected || st.Problem == nil || st.Problem.Code != errs.BrowserNotFound {
			t.Errorf("state %+v, want disconnected with browser_not_found", st)
		}
	})

	t.Run("a browser launched in the background has its windows minimized, an attached one is left as it is", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		m := New(func() config.BrowserSettings {
			return config.BrowserSettings{Binary: "/usr/bin/chromium", Headless: true}
		}, t.TempDir(), nil)
		defer m.Close()
		b, err := m.GetInBackground(ctx)
		if err != nil {
			t.Fatal(err)
		}
		states, err := b.WindowStates(ctx)
		if err != nil || len(states) == 0 {
			t.Fatalf("window states %v: %v", states, err)
		}
		for id, st := range states {
			if st != "minimized" {
				t.Errorf("window %d of the browser launched in the background is %q", id, st)
			}
		}

		theirs, err := browser.Launch(ctx, t.TempDir(), launch.WithBinary("/usr/bin/chromium"), launch.Headless())
		if err != nil {
			t.Fatal(err)
		}
		defer quit(theirs)
		a := New(func() config.BrowserSettings {
			return config.BrowserSettings{AttachURL: theirs.Endpoint()}
		}, t.TempDir(), nil)
		defer a.Close()
		if _, err := a.GetInBackground(ctx); err != nil {
			t.Fatal(err)
		}
		states, err = theirs.WindowStates(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for id, st := range states {
			if st == "minimized" {
				t.Errorf("window %d of the user's own browser was minimized", id)
			}
		}
	})

	t.Run("an attached browser is left running at shutdown", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		theirs, err := browser.Launch(ctx, t.TempDir(), launch.WithBinary("/usr/bin/chromium"), launch.Headless())
		if err != nil {
			t.Fatal(err)
		}
		defer quit(theirs)
		var changes []service.BrowserState
		m := New(func() config.BrowserSettings {
			return config.BrowserSettings{AttachURL: theirs.Endpoint()}
		}, t.TempDir(), func(s service.BrowserState) { changes = append(changes, s) })
		b, err := m.Get(ctx)
		if err != nil {
			t.Fatal(err)
		}
		st := m.State()
		if st.Mode != "attach" || st.Status != service.BrowserConnected || st.Launched || st.PID != 0 {
			t.Errorf("attached state %+v", st)
		}
		if again, _ := m.Get(ctx); again != b {
			t.Error("a second Get connected again instead of reusing the connection")
		}
		m.Close()
		if _, err := theirs.Version(ctx); err != nil {
			t.Errorf("the user's browser stopped answering after Ferry disconnected: %v", err)
		}
		if !processAlive(theirs.PID()) {
			t.Error("the user's browser was quit")
		}
		if _, err := m.Get(ctx); errs.CodeOf(err) != errs.Internal {
			t.Errorf("Get after Close: %v, want internal", err)
		}
		if len(changes) == 0 || changes[0].Status != service.BrowserConnected {
			t.Errorf("changes %+v, want a connected notice", changes)
		}
	})
}
