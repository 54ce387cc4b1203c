//go:build !windows

package webview2

import "github.com/wailsapp/wails/v2/pkg/options/windows"

// Prepare readies the window for this platform and returns the
// options for options.App.Windows. On Linux the display check
// (app/internal/display) and the GTK options in the app's Run are all
// there is.
func Prepare(string) (*windows.Options, error) { return nil, nil }
