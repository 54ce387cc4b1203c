//go:build !windows

package launch

// appPathFromRegistry is nil off Windows: there is no registry to ask.
var appPathFromRegistry func(exe string) []string

// resourceVersion is Windows' only: elsewhere the browser prints its
// version (ok false).
func resourceVersion(string) (v string, ok bool, err error) { return "", false, nil }
