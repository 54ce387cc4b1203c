//go:build !dev

package desktop

// WithDevPicker is the identity outside the dev binary: production always
// shows the real dialog.
func WithDevPicker(p FilePicker) FilePicker { return p }
