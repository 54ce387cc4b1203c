package webview2

import (
	"fmt"
	"os"
	"strings"
	"unsafe"

	"github.com/wailsapp/go-webview2/webviewloader"
	"github.com/wailsapp/wails/v2/pkg/options/windows"
	xwindows "golang.org/x/sys/windows"

	"github.com/ferrydesk/ferry/app/internal/opener"
	"github.com/ferrydesk/ferry/app/internal/win32"
	"github.com/ferrydesk/ferry/backend/errs"
)

// Prepare readies the WebView2 window: without a WebView2 Runtime
// (or with one older than Wails accepts) it says so in a message box that
// offers the download page, and returns the envelope, so the window never
// opens Wails' own silent installer. Otherwise it keeps the WebView2's
// profile under Ferry's data directory: the options it returns go into
// options.App.Windows.
func Prepare(dataDir string) (*windows.Options, error) {
	installed, err := webviewloader.GetAvailableCoreWebView2BrowserVersionString("")
	if err != nil {
		installed = ""
	}
	if p := webview2Problem(installed); p != nil {
		offerWebview2Download(p)
		return nil, p
	}
	o := &windows.Options{Theme: windows.SystemDefault, Messages: webview2Messages()}
	if dataDir != "" {
		// Made here so that a data directory that cannot hold it is
		// Wails' default (%APPDATA%\ferry-desktop.exe) rather than a
		// message box at start.
		if err := os.MkdirAll(webview2Dir(dataDir), 0o700); err == nil {
			o.WebviewUserDataPath = webview2Dir(dataDir)
		}
	}
	return o, nil
}

// webview2Messages are Wails' own texts for the runtime, said as Ferry
// says them (they show only if the runtime breaks after the check).
func webview2Messages() *windows.Messages {
	m := windows.DefaultMessages()
	m.Webview2NotInstalled = "The Microsoft Edge WebView2 Runtime is not installed. Install it from " + webview2DownloadURL
	m.DownloadPage = "Ferry needs the Microsoft Edge WebView2 Runtime. Press OK to open " + webview2DownloadURL + ". Minimum version required: "
	m.WebView2ProcessCrash = "The window's WebView2 process crashed: start Ferry again. If it keeps happening, repair the WebView2 Runtime from " + webview2DownloadURL
	return m
}

var (
	procMessageBoxW = win32.User32.NewProc("MessageBoxW")
)

const (
	mbOKCancel    = 0x01
	mbIconWarning = 0x30
	idOK          = 1
)

// offerWebview2Download shows p in a message box; OK opens the download
// page in the user's browser.
func offerWebview2Download(p *errs.Envelope) {
	msg := p.Message
	if msg != "" {
		msg = strings.ToUpper(msg[:1]) + msg[1:]
	}
	text := fmt.Sprintf("%s.\n\nPress OK to open the download page:\n%s\n\nInstall the Evergreen Runtime, then start Ferry again.", msg, webview2DownloadURL)
	t, _ := xwindows.UTF16PtrFromString(text)
	title, _ := xwindows.UTF16PtrFromString("Ferry needs the WebView2 Runtime")
	r, _, _ := procMessageBoxW.Call(0, uintptr(unsafe.Pointer(t)), uintptr(unsafe.Pointer(title)), mbOKCancel|mbIconWarning)
	if r == idOK {
		_ = opener.Open(webview2DownloadURL)
	}
}
