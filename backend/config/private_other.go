//go:build !unix

package config

// KeepFilesPrivate does nothing where there is no umask: files take the
// access rules of the directory they are created in.
func KeepFilesPrivate() {}
