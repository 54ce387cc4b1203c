//go:build !unix

package clihost

import "os"

// openNonBlocking opens path for reading (no FIFOs to wait on here).
func openNonBlocking(path string) (*os.File, error) { return os.Open(path) }
