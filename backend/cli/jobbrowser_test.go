package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestTheJobCommandsTakeTheirBrowserFromTheService covers the browser
// flags of ask, code and retrieve once they are a request's BrowserSpec:
// contradictions are refused before anything is opened, and attaching to
// Ferry's own browser that does not run says so from the run itself.
func TestTheJobCommandsTakeTheirBrowserFromTheService(t *testing.T) {
	t.Parallel()
	dataDir := t.TempDir()
	conv := "67f0c1d2-0000-4000-8000-000000000001"
	cases := []struct {
		name string
		args []string
		code errs.Code
		says string
	}{
		{"code refuses --browser launch with --browser-url", []string{"code", "--site", "chatgpt", "--browser", "launch", "--browser-url", "ws://127.0.0.1:9/devtools/browser/x", "task"}, errs.BadInput, "contradict"},
		{"retrieve refuses launch options when attaching", []string{"retrieve", "--conv", conv, "--browser", "attach", "--chromium", "/bin/false"}, errs.BadInput, "--chromium"},
		{"retrieve refuses an unknown --browser", []string{"retrieve", "--conv", conv, "--browser", "borrow"}, errs.BadInput, "launch or attach"},
		{"ask attaching to Ferry's browser when it does not run says so", []string{"ask", "--site", "chatgpt", "--browser", "attach", "hi"}, errs.BrowserDisconnected, "not running"},
		{"code attaching to Ferry's browser when it does not run says so", []string{"code", "--site", "chatgpt", "--browser", "attach", "--out", t.TempDir(), "task"}, errs.BrowserDisconnected, "not running"},
		{"retrieve attaching to Ferry's browser when it does not run says so", []string{"retrieve", "--conv", conv, "--browser", "attach", "--out", t.TempDir()}, errs.BrowserDisconnected, "not running"},
		{"retrieve of an id that is not a conversation is bad input", []string{"retrieve", "--conv", "not/one"}, errs.BadInput, "--conv"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := ferry(t, nil, append(tc.args, "--data-dir", dataDir, "--json", "--timeout", "20s")...)
			var e errorJSON
			if err := json.Unmarshal([]byte(r.stdout), &e); err != nil || e.Error.Code == "" {
				// code and retrieve print their receipt; its error is the run's.
				var rc struct {
					Error errs.Envelope `json:"error"`
				}
				if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
					t.Fatalf("stdout %q is neither an error nor a receipt: %v", r.stdout, err)
				}
				e.Error = rc.Error
			}
			if r.code != exitOf(tc.code) || e.Error.Code != tc.code || !strings.Contains(e.Error.Message, tc.says) {
				t.Fatalf("exit %d, envelope %+v; want %s saying %q\nstderr %s", r.code, e.Error, tc.code, tc.says, r.stderr)
			}
		})
	}
}
