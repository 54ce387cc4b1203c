//go:build !bindings

package app

// generatingBindings is false in every binary that shows a window.
const generatingBindings = false
