//go:build !windows

package app

// trashFor is the freedesktop home trash of the environment getenv reads.
func trashFor(getenv func(string) string) trashCan { return freedesktopTrash{getenv: getenv} }
