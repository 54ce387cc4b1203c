package opener

import (
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// explorerSelectCmdLine is the command line that opens Explorer on the
// folder of path with the file selected: explorer.exe /select,"C:\…\x.zip".
// Explorer parses its own command line (not by CommandLineToArgvW's rules),
// so the line is written whole, the path in double quotes after the comma.
// A path with a double quote (Windows allows none in a name) or a control
// character is errs.BadInput.
func explorerSelectCmdLine(path string) (string, error) {
	if path == "" || strings.ContainsAny(path, "\"\x00\r\n") {
		return "", errs.New(errs.BadInput, "cannot show %q in Explorer: the path holds a quote or a control character", path).
			WithEvidence("path", path)
	}
	return `explorer.exe /select,"` + path + `"`, nil
}
