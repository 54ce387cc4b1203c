//go:build desktop || dev

package hotkey

// System is the global-hotkey backend of the Windows desktop:
// RegisterHotKey (winGrabber), whatever the environment says.
func System(Env) Grabber { return winGrabber{} }
