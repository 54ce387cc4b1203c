package opener

import (
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestExplorerSelectCmdLine(t *testing.T) {
	cases := []struct{ name, path, want string }{
		{"a plain path is selected", `C:\Users\ann\Ferry\artifacts\site.zip`, `explorer.exe /select,"C:\Users\ann\Ferry\artifacts\site.zip"`},
		{"spaces stay inside the quotes", `C:\Users\Ann Lee\My Files\my project.zip`, `explorer.exe /select,"C:\Users\Ann Lee\My Files\my project.zip"`},
		{"commas in a name stay inside the quotes", `D:\out\a,b.zip`, `explorer.exe /select,"D:\out\a,b.zip"`},
		{"a UNC path is kept", `\\nas\share\x.zip`, `explorer.exe /select,"\\nas\share\x.zip"`},
		{"non-ASCII passes unchanged", `C:\Users\Zoë\報告.zip`, `explorer.exe /select,"C:\Users\Zoë\報告.zip"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := explorerSelectCmdLine(c.path)
			if err != nil || got != c.want {
				t.Errorf("explorerSelectCmdLine(%q) = %q, %v; want %q", c.path, got, err, c.want)
			}
		})
	}
	for _, p := range []string{"", `C:\a"b.zip`, "C:\\a\nb.zip"} {
		t.Run("a path Explorer could not be given is refused: "+p, func(t *testing.T) {
			if got, err := explorerSelectCmdLine(p); errs.CodeOf(err) != errs.BadInput {
				t.Errorf("explorerSelectCmdLine(%q) = %q, %v; want bad_input", p, got, err)
			}
		})
	}
}
