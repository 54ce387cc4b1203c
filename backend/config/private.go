package config

import "errors"

// ErrNotPrivate is wrapped by CheckPrivate when someone other than the
// user (and, on Windows, the system and the administrators, who can read
// every file anyway) may read a file.
var ErrNotPrivate = errors.New("other users may read it")
