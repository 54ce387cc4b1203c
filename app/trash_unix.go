//go:build !windows

package app

import "os"

// systemTrash is the freedesktop home trash.
func systemTrash() trashCan { return freedesktopTrash{getenv: os.Getenv} }
