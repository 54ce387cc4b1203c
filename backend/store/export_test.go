package store

// Checked is closed when the rolling backups' check at start ended, so a
// test waits on the check itself.
func (r *RollingBackups) Checked() <-chan struct{} { return r.checked }
