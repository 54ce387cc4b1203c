//go:build !windows

package app

import "github.com/wailsapp/wails/v2/pkg/options/windows"

// windowPlatform readies the window for this platform and returns the
// options for options.App.Windows. On Linux the display check
// (checkDisplay) and the GTK options in Run are all there is.
func windowPlatform(string) (*windows.Options, error) { return nil, nil }
