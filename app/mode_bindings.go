//go:build bindings

package app

// generatingBindings is true in the binary built with -tags bindings, whose
// only job is to write frontend/wailsjs: it must not need a display or touch
// a data directory.
const generatingBindings = true
