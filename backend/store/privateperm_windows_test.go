package store_test

import "io/fs"

// privatePerm is the permission bits os.Stat reports on Windows for a file
// or directory Ferry created private with perm. Windows keeps no mode bits:
// Go shows a writable file as 0666 and a directory as 0777, whatever perm
// was asked. Who may read them there is decided by the ACL of the user's
// profile, under which the data directory lives (%LOCALAPPDATA%\Ferry).
func privatePerm(perm fs.FileMode) fs.FileMode {
	if perm&0o111 != 0 {
		return 0o777
	}
	return 0o666
}
