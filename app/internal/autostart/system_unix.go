//go:build !windows

package autostart

import "os"

// System is the XDG autostart entry of the user's session.
func System() LoginStart { return xdgAutostart{getenv: os.Getenv} }
