//go:build !linux && !darwin && !windows

package confirm

import "os"

// terminal is false where Ferry cannot tell: a question nobody may see is
// never asked; --yes answers it.
func terminal(*os.File) bool { return false }
