package autostart

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestRunKeyCommandQuotesThePath(t *testing.T) {
	cases := []struct {
		name, exe, want string
	}{
		{"a plain path is quoted", `C:\Ferry\ferry-desktop.exe`, `"C:\Ferry\ferry-desktop.exe" --hidden`},
		{"a path with spaces stays one program name", `C:\Users\Ann Lee\AppData\Local\Programs\Ferry\ferry-desktop.exe`, `"C:\Users\Ann Lee\AppData\Local\Programs\Ferry\ferry-desktop.exe" --hidden`},
		{"Program Files is not cut at its space", `C:\Program Files\Ferry\ferry-desktop.exe`, `"C:\Program Files\Ferry\ferry-desktop.exe" --hidden`},
		{"backslashes stay as they are (no escapes in a program name)", `\\server\share\Ferry\ferry-desktop.exe`, `"\\server\share\Ferry\ferry-desktop.exe" --hidden`},
		{"non-ASCII names pass unchanged", `C:\Users\Zoë\Ferry\ferry-desktop.exe`, `"C:\Users\Zoë\Ferry\ferry-desktop.exe" --hidden`},
		{"shell characters need no escape inside the quotes", `C:\A&B (x86)\%PATH%\ferry-desktop.exe`, `"C:\A&B (x86)\%PATH%\ferry-desktop.exe" --hidden`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := runKeyCommand(c.exe)
			if err != nil || got != c.want {
				t.Errorf("runKeyCommand(%q) = %q, %v; want %q", c.exe, got, err, c.want)
			}
		})
	}
	for _, exe := range []string{``, `C:\a"b\ferry-desktop.exe`, "C:\\a\nb\\ferry-desktop.exe", "C:\\a\x00b.exe"} {
		t.Run("a path that cannot be one program name is refused: "+exe, func(t *testing.T) {
			if got, err := runKeyCommand(exe); errs.CodeOf(err) != errs.BadInput {
				t.Errorf("runKeyCommand(%q) = %q, %v; want bad_input", exe, got, err)
			}
		})
	}
}
