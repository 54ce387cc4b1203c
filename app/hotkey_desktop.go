//go:build desktop || dev

package app

// systemGrabber is the global-hotkey backend of the desktop and dev
// binaries: X11, spoken over the display's socket (see hotkey_x11.go).
func systemGrabber(env hotkeyEnv) hotkeyGrabber { return x11Grabber{Display: env.Display} }
