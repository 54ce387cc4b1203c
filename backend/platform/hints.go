// Package platform holds the few facts about Linux, Windows and macOS that
// several packages need: the hints shown to the user, as pure functions of
// the GOOS, so that every hint names the fix of the platform the user is on
// and each platform's text is tested on any machine, and whether a Windows
// program runs under Wine. The code that differs by platform (paths,
// processes, private files, the console) lives with its concern, in
// x_windows.go / x_darwin.go / x_linux.go files.
package platform

import "runtime"

// GOOS is the platform Ferry runs on; the hints below take it as an
// argument so that tests can ask for another platform's text.
const GOOS = runtime.GOOS

// BrowserInstall is the fix for "no browser found" on goos: how to install
// a browser Ferry can drive there, and how to name one that is installed
// where Ferry does not look.
func BrowserInstall(goos string) string {
	switch goos {
	case "windows":
		return `install Google Chrome or Microsoft Edge (winget install Google.Chrome), or pass the browser's path with --chromium "C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe", or attach to a running browser with --browser-url`
	case "darwin":
		return `install Google Chrome into /Applications (or: brew install --cask google-chrome), or pass the browser's path with --chromium "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome", or attach to a running browser with --browser-url`
	}
	return "install Chromium (Debian/Ubuntu: apt-get install chromium; Fedora: dnf install chromium), or pass --chromium PATH, or attach to a running browser with --browser-url"
}

// BrowserSetting is the doctor's fix for "no browser found" on goos, where
// the settings file names the browser (browser.binary) instead of a flag.
func BrowserSetting(goos string) string {
	switch goos {
	case "windows":
		return `install Google Chrome or Microsoft Edge (winget install Google.Chrome), or set browser.binary in settings to the browser's .exe (e.g. C:\Program Files (x86)\Microsoft\Edge\Application\msedge.exe)`
	case "darwin":
		return "install Google Chrome into /Applications (or: brew install --cask google-chrome), or set browser.binary in settings to the app's executable (…/Google Chrome.app/Contents/MacOS/Google Chrome)"
	}
	return "install Chromium (Debian/Ubuntu: apt-get install chromium) or set browser.binary in settings"
}

// GitInstall is the fix for "git is not installed" on goos.
func GitInstall(goos string) string {
	switch goos {
	case "windows":
		return "install Git for Windows (winget install Git.Git) and open a new terminal so that git is on PATH"
	case "darwin":
		return "install git (xcode-select --install, or: brew install git)"
	}
	return "install git (Debian/Ubuntu: apt-get install git)"
}

// PrivateDir is the fix for a directory dir that other users can access,
// on goos.
func PrivateDir(goos, dir string) string {
	if goos == "windows" {
		return `icacls "` + dir + `" /inheritance:r /grant:r "%USERNAME%:(OI)(CI)F"` + " (or remove every other entry in the folder's Properties > Security)"
	}
	return "chmod 700 " + dir
}

// FreeSpace says, for a hint about a full disk, how to see the free space
// of the disk holding dir on goos ("" for dir: the directory named in the
// message).
func FreeSpace(goos, dir string) string {
	if goos == "windows" {
		if dir == "" {
			return "This PC in Explorer shows it"
		}
		return "This PC in Explorer shows it, and so does the last line of `dir \"" + dir + "\"` in a Command Prompt"
	}
	if dir == "" {
		dir = "DIR"
	}
	return "`df -h " + dir + "` shows it"
}
