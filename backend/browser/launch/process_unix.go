//go:build unix

package launch

import "syscall"

// isRoot reports whether Ferry runs as root, where Chromium refuses to
// start with its sandbox.
func isRoot() bool { return syscall.Geteuid() == 0 }
