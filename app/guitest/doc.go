//go:build gui

// Package guitest runs the real desktop app: the production binary's WebKitGTK
// window (smoke test) and the dev binary's frontend driven in headless
// Chromium over the real Wails IPC (end-to-end tests). It needs an X display
// and a session bus, so it is compiled only with -tags gui:
//
//	xvfb-run -a -s "-screen 0 1280x800x24" dbus-run-session -- go test -tags gui ./app/guitest/
//
// The frontend must be built first (frontend/dist), as `make test` does.
package guitest
