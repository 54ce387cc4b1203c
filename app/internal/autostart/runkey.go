package autostart

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Start at login on Windows: the value "Ferry" in the user's Run key
// (HKCU\Software\Microsoft\Windows\CurrentVersion\Run), a command line that
// starts ferry-desktop.exe with --hidden.
const (
	runKeyPath  = `Software\Microsoft\Windows\CurrentVersion\Run`
	runKeyValue = "Ferry"
)

// runKeyCommand is the Run key's command line for exe: the path always in
// double quotes (Windows splits an unquoted path at its first space and
// would start C:\Program with "Files\…" as its argument), then --hidden.
// The program name of a command line knows no escapes (CommandLineToArgvW
// ends it at the next quote), so a path with a double quote, a control
// character or none at all cannot be written: errs.BadInput.
func runKeyCommand(exe string) (string, error) {
	if exe == "" {
		return "", errs.New(errs.BadInput, "no program path to start at login")
	}
	if strings.ContainsAny(exe, "\"\x00\r\n\t") {
		return "", errs.New(errs.BadInput, "the program path %q cannot be started at login: it holds a quote or a control character", exe).
			WithEvidence("path", exe).WithHint("install Ferry in a folder whose name has no quotes")
	}
	return `"` + exe + `" ` + hiddenFlag, nil
}
