//go:build !windows

package dragout

// System on Linux: WebKitGTK hands text/uri-list file URLs to the
// file manager.
func System(func(path string) (string, error)) Drag { return uriListDrag{} }
