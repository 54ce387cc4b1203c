//go:build !windows

package app

// systemDragOut on Linux: WebKitGTK hands text/uri-list file URLs to the
// file manager.
func systemDragOut(*Artifacts) dragOut { return uriListDrag{} }
