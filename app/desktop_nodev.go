//go:build !dev

package app

// withDevDialogs is the identity outside the dev binary: production always
// shows the real dialogs.
func withDevDialogs(d desktop) desktop { return d }
