//go:build !(desktop || dev)

package app

import "log/slog"

// startTray has no tray to show in this build (tests and the bindings
// generator link no tray host code).
func startTray([]byte, trayActions, *slog.Logger) (trayIcon, error) { return nil, errNoTray }
