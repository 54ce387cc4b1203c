//go:build unix

package store_test

import "io/fs"

// privatePerm is the permission bits os.Stat reports for a file or
// directory Ferry created private with perm: on unix, perm itself.
func privatePerm(perm fs.FileMode) fs.FileMode { return perm }
