//go:build desktop || dev

package app

// systemGrabber is the global-hotkey backend of the Windows desktop:
// RegisterHotKey (winGrabber), whatever the environment says.
func systemGrabber(hotkeyEnv) hotkeyGrabber { return winGrabber{} }
