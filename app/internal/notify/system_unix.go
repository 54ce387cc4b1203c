//go:build !windows

package notify

import "log/slog"

// System is the freedesktop notification service on the session
// bus at bus (newNotifier).
func System(bus string, _ []byte, log *slog.Logger, onClick func(target string)) Notifier {
	return newNotifier(bus, log, onClick)
}
