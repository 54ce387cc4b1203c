//go:build !unix && !windows

package browser

// checkProfileFree cannot tell here; Chromium's own check decides.
func checkProfileFree(string) error { return nil }
