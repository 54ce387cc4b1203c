// Package ownerbrowser keeps the owner's long-lived browser: the one
// Chromium every run of the desktop app (or of `ferry serve` with no
// --browser-url) uses, launched on Ferry's profile or attached per the
// settings, connected on first need and again after it went away, and quit
// at shutdown only when Ferry launched it.
package ownerbrowser

import (
	"context"
	"net/url"
	"sync"
	"time"

	"github.com/ferrydesk/ferry/backend/browser"
	"github.com/ferrydesk/ferry/backend/browser/launch"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// connectTimeout bounds a launch or an attach: Chromium's cold start with a
// fresh profile takes a few seconds on a slow disk.
const connectTimeout = 45 * time.Second

// Browser is the owner's long-lived browser (the desktop's, or ferry
// serve's): it connects on first need (launching Chromium on Ferry's
// profile, or attaching to settings.browser.attachURL), connects again
// after the browser went away, and at shutdown quits only a browser it
// launched (an attached one is merely disconnected). The owner's job
// runner gets its browser from GetInBackground, so every run of the owner
// uses this one browser.
type Browser struct {
	settings   func() config.BrowserSettings
	profileDir string
	changed    func(service.BrowserState)

	// connMu serialises connecting, so two runs starting together share
	// one launch.
	connMu sync.Mutex
	mu     sync.Mutex
	b      *browser.Browser
	last   error // why the browser is not connected, nil before the first try
	closed bool
	// tabsChanged hears of the tabs' changes (WatchTabs); may be nil.
	tabsChanged func()
}

// New manages the browser that settings describe (read at each
// connect), launched on profileDir; changed (may be nil) hears of every
// change of its state.
func New(settings func() config.BrowserSettings, profileDir string, changed func(service.BrowserState)) *Browser {
	return &Browser{settings: settings, profileDir: profileDir, changed: changed}
}

// Get returns the connected browser, connecting first when there is none
// or the last one went away. Errors: the launch or attach envelopes
// (BrowserNotFound, BrowserLaunchFailed, BadInput for a bad attach address);
// Internal after shutdown.
func (m *Browser) Get(ctx context.Context) (*browser.Browser, error) {
	if b := m.Current(); b != nil {
		return b, nil
	}
	m.connMu.Lock()
	defer m.connMu.Unlock()
	if b := m.Current(); b != nil {
		return b, nil
	}
	return m.connect(ctx)
}

// GetInBackground is Get, except that a browser it launches has its windows
// minimized at once: started for the user's sake, it does not come up over
// what they are doing. Errors: as Get.
func (m *Browser) GetInBackground(ctx context.Context) (*browser.Browser, error) {
	if b := m.Current(); b != nil {
		return b, nil
	}
	m.connMu.Lock()
	defer m.connMu.Unlock()
	if b := m.Current(); b != nil {
		return b, nil
	}
	b, err := m.connect(ctx)
	if err != nil || !b.Launched() {
		return b, err
	}
	// A window manager that does not minimize leaves the window up: the
	// browser still serves, so that is not an error of the connect.
	if err := b.MinimizeWindows(ctx); err != nil && b.Err() != nil {
		return nil, err
	}
	return b, nil
}

// Reconnect drops the current browser (quitting it when Ferry launched it)
// and connects again with the settings in force now: the way to apply
// changed browser settings, or to retry after a failure. Errors: as Get.
func (m *Browser) Reconnect(ctx context.Context) (*browser.Browser, error) {
	m.connMu.Lock()
	defer m.connMu.Unlock()
	m.mu.Lock()
	old := m.b
	m.b = nil
	m.mu.Unlock()
	if old != nil {
		quit(old)
	}
	return m.connect(ctx)
}

// Current is the connected browser, or nil: it never connects.
func (m *Browser) Current() *browser.Browser {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.b != nil && m.b.Err() == nil {
		return m.b
	}
	return nil
}

// connect launches or attaches per the settings; connMu is held.
func (m *Browser) connect(ctx context.Context) (*browser.Browser, error) {
	m.mu.Lock()
	closed := m.closed
	m.mu.Unlock()
	if closed {
		return nil, errs.New(errs.Internal, "Ferry is shutting down: no browser is started now")
	}
	ctx, cancel := context.WithTimeout(ctx, connectTimeout)
	defer cancel()
	m.mu.Lock()
	gone := m.b
	m.mu.Unlock()
	if gone != nil && gone.Err() != nil {
		// A browser Ferry launched that went away (killed, or quit by
		// its user) may still be exiting and hold the profile: it is
		// reaped, its helpers with it, before another starts on it.
		quit(gone)
	}
	bs := m.settings()
	var (
		b   *browser.Browser
		err error
	)
	if bs.AttachURL != "" {
		b, err = browser.Attach(ctx, bs.AttachURL)
	} else {
		var opts []launch.Option
		if bs.Binary != "" {
			opts = append(opts, launch.WithBinary(bs.Binary))
		}
		if bs.Headless {
			opts = append(opts, launch.Headless())
		}
		if len(bs.ExtraArgs) > 0 {
			opts = append(opts, launch.WithArgs(bs.ExtraArgs...))
		}
		b, err = browser.Launch(ctx, m.profileDir, opts...)
	}
	m.mu.Lock()
	if err != nil {
		m.last = err
	} else if m.closed {
		// Shut down while launching: do not leave the browser behind.
		m.mu.Unlock()
		quit(b)
		return nil, errs.New(errs.Internal, "Ferry is shutting down: no browser is started now")
	} else {
		m.b, m.last = b, nil
	}
	m.mu.Unlock()
	m.notify()
	if err != nil {
		return nil, err
	}
	go m.watch(b)
	m.watchTabs(b)
	return b, nil
}

// watch reports the browser going away (the user closed its window, it
// crashed, the attached browser quit), and reaps a browser Ferry launched
// so that its profile is free for the next launch.
func (m *Browser) watch(b *browser.Browser) {
	<-b.Done()
	if b.Launched() {
		quit(b)
	}
	m.mu.Lock()
	mine := m.b == b
	if mine {
		m.last = b.Err()
	}
	closed := m.closed
	m.mu.Unlock()
	if mine && !closed {
		m.notify()
	}
}

func (m *Browser) notify() {
	if m.changed != nil {
		m.changed(m.State())
	}
}

// State describes the browser now, without connecting it.
func (m *Browser) State() service.BrowserState {
	bs := m.settings()
	st := service.BrowserState{Status: service.BrowserNotStarted, Mode: "launch", Headless: bs.Headless}
	if bs.AttachURL != "" {
		st.Mode, st.Headless = "attach", false
	}
	m.mu.Lock()
	b, last := m.b, m.last
	m.mu.Unlock()
	switch {
	case b != nil && b.Err() == nil:
		st.Status, st.Launched, st.PID, st.Endpoint = service.BrowserConnected, b.Launched(), b.PID(), devtoolsHost(b.Endpoint())
	case b != nil:
		env := *errs.From(b.Err()) // a copy: the browser keeps its cause
		env.RetryHint = "connect the browser again (a browser Ferry launched is started anew)"
		st.Status, st.Problem = service.BrowserDisconnected, &env
	case last != nil:
		st.Status, st.Problem = service.BrowserDisconnected, errs.From(last)
	}
	return st
}

// Close quits a browser Ferry launched and disconnects from an attached
// one; later Gets fail. Safe to call more than once.
func (m *Browser) Close() {
	m.mu.Lock()
	m.closed = true
	b := m.b
	m.b = nil
	m.mu.Unlock()
	if b != nil {
		quit(b)
	}
}

// quit ends Ferry's use of b: browser.Close quits a launched
// browser and only disconnects from an attached one.
func quit(b *browser.Browser) {
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	_ = b.Close(ctx)
}

// devtoolsHost is the host:port of a DevTools address.
func devtoolsHost(endpoint string) string {
	u, err := url.Parse(endpoint)
	if err != nil {
		return ""
	}
	return u.Host
}
