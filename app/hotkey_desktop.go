//go:build (desktop || dev) && !windows

package app

// systemGrabber is the global-hotkey backend of the desktop and dev
// binaries: X11, spoken over the display's socket (see hotkey_x11.go), in
// an X11 session; in a Wayland session the desktop's GlobalShortcuts portal
// first, then X11 through XWayland (see hotkey_portal.go).
func systemGrabber(env hotkeyEnv) hotkeyGrabber { return chooseGrabber(env) }
