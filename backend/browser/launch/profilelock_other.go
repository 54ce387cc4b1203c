//go:build !unix && !windows

package launch

// checkProfileFree cannot tell here; Chromium's own check decides.
func checkProfileFree(string) error { return nil }
