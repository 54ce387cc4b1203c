// Package wording says what the backend says in the window's words: an
// envelope's hint as what to do in the window rather than in a terminal
// (ForDesktop), sites by the names the window gives them (SiteName, as the
// site registry names them), a text on one short line (OneLine), a run's
// state as the window shows it (ShownState).
package wording

import (
	"runtime"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The catalog's hints are written for the terminal: they name flags and
// commands. In the window the user has buttons, views and settings instead,
// so an envelope shown there says what to do in the window's words.

// namesCLI reports whether text tells the user to use a flag or a command.
func namesCLI(text string) bool { return errs.NamesCLI(text) }

// desktopHints are the window's "what to do" for the codes whose catalog
// hint is the terminal's.
var desktopHints = map[errs.Code]string{
	errs.Internal:              "this is a bug in Ferry: open Settings → System to check the setup, and report it with the details shown",
	errs.Cancelled:             "send it again when you are ready",
	errs.Timeout:               "the work may still finish in the browser: check the tab, or raise the answer timeout in Settings → Timeouts and cooldowns and Retry",
	errs.BadInput:              "fix what the message names and send again",
	errs.UnknownCommand:        "this action is not known to this Ferry: update Ferry, or report it",
	errs.ConfigInvalid:         "fix the setting at the line shown in Settings, or use Revert to go back to the saved settings",
	errs.UnknownSite:           "pick a site from the list, or define it in Settings → Sites",
	errs.AuthorizationRequired: "confirm the request in Ferry, then send it again",
	errs.StoreBusy:             "another Ferry process uses this data directory: close it, then start Ferry again",
	errs.StoreCorrupt:          "Ferry's data is damaged: Settings → System shows what is damaged; Ferry keeps rolling backups of it in its data directory",
	errs.StoreSchemaNewer:      "this data was written by a newer Ferry: update Ferry, or set another data directory in Settings → Locations",
	errs.DataDirUnwritable:     "make the data directory writable, or set another one in Settings → Locations",
	errs.DiskFull:              "free space on the disk that holds the directory named in the message, or move the data directory to a larger disk in Settings → Locations, then try again",
	errs.BrowserNotFound:       browserNotFoundHint(runtime.GOOS),
	errs.BrowserLaunchFailed:   "close other browsers that use Ferry's profile, then Launch browser in Tabs; Settings → System checks the browser",
	errs.BrowserDisconnected:   "the browser went away: a run that was answering is collected with Collect the rest, which starts the browser again; otherwise Launch browser in Tabs, then Retry",
	errs.SendUnconfirmed:       "check the tab: the prompt may or may not have been sent; look for the answer in the tab or History before sending again",
	errs.NoDisplay:             "start Ferry in a desktop session",
	errs.EnvironmentNotReady:   "apply the fixes Settings → System lists, then try again",
	errs.TargetNotFound:        "the tab is gone: pick another tab, or send to the site, which opens one",
	errs.TargetCrashed:         "reload the tab in the browser, then Retry",
	errs.SessionNotFound:       "the run is not in History: pick it from the list",
	errs.SessionStale:          "the conversation's tab is gone or elsewhere: open the conversation again from History, or start a new chat",
	errs.SessionAmbiguous:      "several runs match: pick the one you mean in History",
	errs.TabAmbiguous:          "several tabs of the site are open: pick the tab to send to",
	errs.TabBusy:               "the tab is still answering an earlier prompt: let it finish (or stop it in the browser), then Retry, or tick New chat",
	errs.CodeArtifactMissing:   "the answer came without a sandbox zip: ask again for the zip, or tick “Allow inline code blocks” to save the answer's code blocks as a zip",
	errs.HubNotRunning:         "start Ferry again",
	errs.HubNotFound:           "it is gone: refresh the list",
}

// browserNotFoundHint is the window's fix for "no browser" on goos: each
// platform's own way to install one, then the setting that names it.
func browserNotFoundHint(goos string) string {
	switch goos {
	case "windows":
		return "install Google Chrome or Microsoft Edge (winget install Google.Chrome), or choose the browser's .exe in Settings → Browser"
	case "darwin":
		return "install Google Chrome into /Applications (or: brew install --cask google-chrome), or choose the browser in Settings → Browser"
	}
	return "install Chromium (apt-get install chromium), or choose the browser in Settings → Browser"
}

// ForDesktop is env as the window shows it: its hint in the window's words
// when the catalog's (or the one it was given) names a flag or a command,
// and sites named as the window names them.
// env itself is left as it is (it may be a stored run's); nil stays nil.
func ForDesktop(env *errs.Envelope) *errs.Envelope {
	if env == nil {
		return nil
	}
	out := *env
	if namesCLI(env.RetryHint) {
		if h, ok := desktopHints[env.Code]; ok {
			out.RetryHint = h
		} else {
			out.RetryHint = "see the details below, then try again"
		}
	}
	// Sites by the names the window uses (sites.go).
	out.Message, out.RetryHint = withSiteNames(out.Message), withSiteNames(out.RetryHint)
	if out.Message == env.Message && out.RetryHint == env.RetryHint {
		return env
	}
	return &out
}
