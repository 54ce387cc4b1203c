//go:build !dev

package desktop

// WithDevDialogs is the identity outside the dev binary: production always
// shows the real dialogs.
func WithDevDialogs(d Desktop) Desktop { return d }
