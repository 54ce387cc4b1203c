//go:build !windows

package app

import "testing"

// On Linux the page keeps handing WebKitGTK a text/uri-list.
func TestDragSourceOnLinuxIsAURIList(t *testing.T) {
	src, err := (&Artifacts{}).DragSource()
	if err != nil || src.Kind != "uri-list" || src.Base != "" {
		t.Errorf("DragSource = %+v, %v; want uri-list", src, err)
	}
}
