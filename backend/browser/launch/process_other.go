//go:build !unix

package launch

// isRoot is false where there is no root user (Windows): Chromium's
// sandbox works for an administrator too.
func isRoot() bool { return false }
