//go:build (desktop || dev) && !windows

package hotkey

// System is the global-hotkey backend of the desktop and dev
// binaries: X11, spoken over the display's socket (see x11.go), in
// an X11 session; in a Wayland session the desktop's GlobalShortcuts portal
// first, then X11 through XWayland (see portal.go).
func System(env Env) Grabber { return chooseGrabber(env) }
