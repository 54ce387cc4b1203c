//go:build !windows

package browser

// appPathFromRegistry is nil off Windows: there is no registry to ask.
var appPathFromRegistry func(exe string) []string
