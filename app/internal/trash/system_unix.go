//go:build !windows

package trash

// trashFor is the freedesktop home trash of the environment getenv reads.
func trashFor(getenv func(string) string) Can { return freedesktopTrash{getenv: getenv} }
