//go:build !(desktop || dev)

package tray

import "log/slog"

// Start has no tray to show in this build (tests and the bindings
// generator link no tray host code).
func Start([]byte, Actions, *slog.Logger) (Icon, error) { return nil, errNoTray }
