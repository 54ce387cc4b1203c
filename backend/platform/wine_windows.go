//go:build windows

package platform

import (
	"sync"

	"golang.org/x/sys/windows"
)

var wine = sync.OnceValue(func() bool {
	return windows.NewLazySystemDLL("ntdll.dll").NewProc("wine_get_version").Find() == nil
})

// UnderWine reports whether this Windows program runs under Wine: its
// ntdll exports wine_get_version, which no Windows has. Wine differs from
// Windows where Ferry cares (measured with Wine 8.0: a file's DACL is
// accepted and discarded, so no file can be made owner-only), and Ferry's
// Windows tests run under it.
func UnderWine() bool { return wine() }
