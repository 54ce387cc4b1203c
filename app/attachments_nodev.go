//go:build !dev

package app

// withDevPicker is the identity outside the dev binary: production always
// shows the real dialog.
func withDevPicker(p filePicker) filePicker { return p }
