//go:build !windows

package app

import "os"

// systemLoginStart is the XDG autostart entry of the user's session.
func systemLoginStart() loginStart { return xdgAutostart{getenv: os.Getenv} }
