//go:build !windows

package app

import "log/slog"

// systemTrayPlace is the freedesktop tray on the session bus.
func systemTrayPlace() trayPlace { return sniTray{} }

// systemNotifier is the freedesktop notification service on the session
// bus at bus (newNotifier).
func systemNotifier(bus string, _ []byte, log *slog.Logger, onClick func(target string)) notifier {
	return newNotifier(bus, log, onClick)
}
