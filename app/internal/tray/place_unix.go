//go:build !windows

package tray

// SystemPlace is the freedesktop tray on the session bus.
func SystemPlace() Place { return sniTray{} }
