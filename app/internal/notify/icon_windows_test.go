package notify

import (
	"os"
	"path/filepath"
	"testing"
	"unsafe"

	"golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/ico"
	"github.com/ferrydesk/ferry/app/internal/win32"
)

// Windows itself reads the .ico made from Ferry's PNG (as fyne's tray loads
// it: LoadImageW from a file) and the small PNG the notification icon uses
// (CreateIconFromResourceEx).
func TestWindowsLoadsFerrysIcons(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("..", "..", "..", "frontend", "public", "ferry.png"))
	if err != nil {
		t.Fatal(err)
	}
	icoData, err := ico.FromPNG(src)
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(os.TempDir(), "ferry-icon-test.ico")
	if err := os.WriteFile(f, icoData, 0o600); err != nil {
		t.Fatal(err)
	}
	defer os.Remove(f)
	name, _ := windows.UTF16PtrFromString(f)
	const imageIcon, lrLoadFromFile, lrDefaultSize = 1, 0x10, 0x40
	h, _, err := win32.User32.NewProc("LoadImageW").Call(0, uintptr(unsafe.Pointer(name)), imageIcon, 0, 0, lrLoadFromFile|lrDefaultSize)
	if h == 0 {
		t.Fatalf("LoadImageW of the .ico: %v", err)
	}
	procDestroyIcon.Call(h)
	small, err := ico.PNGOfSize(src, 32)
	if err != nil {
		t.Fatal(err)
	}
	hi := iconFromPNG(small)
	stock, _, _ := procLoadIconW.Call(0, idiApplication)
	if hi == 0 || uintptr(hi) == stock {
		t.Fatalf("CreateIconFromResourceEx of the 32 px PNG gave %#x (the stock icon is %#x)", hi, stock)
	}
	procDestroyIcon.Call(uintptr(hi))
}
