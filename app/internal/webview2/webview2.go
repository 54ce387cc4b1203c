// Package webview2 readies the window on Windows, which is a WebView2
// (Prepare): a missing or too old WebView2 Runtime is said in a message box
// offering the download, and the WebView2 keeps its profile under Ferry's
// data directory. Elsewhere there is nothing to ready.
package webview2

import (
	"strconv"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The Ferry window on Windows is a WebView2: the Microsoft Edge WebView2
// Runtime must be installed (Windows 11 has it; Windows 10 usually has it
// through Edge's updates).
const (
	webview2DownloadURL = "https://developer.microsoft.com/microsoft-edge/webview2/"
	// webview2MinVersion is the oldest runtime Wails v2.9.2 accepts
	// (its wv2installer.MinimumRuntimeVersion).
	webview2MinVersion = "94.0.992.31"
)

// webview2Problem says why the window cannot open with the WebView2
// runtime whose version is installed ("" for none): errs.EnvironmentNotReady
// naming the download page, or nil when it is new enough.
func webview2Problem(installed string) *errs.Envelope {
	if installed == "" {
		return errs.New(errs.EnvironmentNotReady, "the Ferry window needs the Microsoft Edge WebView2 Runtime, and it is not installed").
			WithEvidence("url", webview2DownloadURL).
			WithHint("install the Evergreen WebView2 Runtime from %s (or: winget install Microsoft.EdgeWebView2Runtime), then start Ferry again; the ferry command works without it", webview2DownloadURL)
	}
	if olderVersion(installed, webview2MinVersion) {
		return errs.New(errs.EnvironmentNotReady, "the Ferry window needs the Microsoft Edge WebView2 Runtime %s or newer, and %s is installed", webview2MinVersion, installed).
			WithEvidence("url", webview2DownloadURL).WithEvidence("installed", installed).
			WithHint("update the WebView2 Runtime from %s (or: winget upgrade Microsoft.EdgeWebView2Runtime), then start Ferry again", webview2DownloadURL)
	}
	return nil
}

// olderVersion reports whether dotted version a is older than b. A
// channel suffix ("120.0.2210.91 beta") is ignored; a part that is not a
// number counts as 0.
func olderVersion(a, b string) bool {
	a, _, _ = strings.Cut(strings.TrimSpace(a), " ")
	pa, pb := strings.Split(a, "."), strings.Split(b, ".")
	for i := 0; i < max(len(pa), len(pb)); i++ {
		var x, y int
		if i < len(pa) {
			x, _ = strconv.Atoi(pa[i])
		}
		if i < len(pb) {
			y, _ = strconv.Atoi(pb[i])
		}
		if x != y {
			return x < y
		}
	}
	return false
}

// webview2Dir is where the WebView2 keeps its profile: under Ferry's data
// directory (%LOCALAPPDATA%\Ferry\webview2 by default), not beside the exe,
// whose folder a per-user install may not let it write and an uninstall
// removes.
func webview2Dir(dataDir string) string { return dataDir + `\webview2` }
