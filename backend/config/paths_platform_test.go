package config

import (
	"errors"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// The default directories of each platform, resolved from that platform's
// environment on any machine.
func TestDefaultDirsOfEachPlatform(t *testing.T) {
	cases := []struct {
		name           string
		goos           string
		env            map[string]string
		home           string
		data, config   string
		wantBadInput   bool
		wantHintNaming string
	}{
		{name: "windows: LocalAppData for data, AppData (roaming) for settings", goos: "windows",
			env:  map[string]string{"LocalAppData": `C:\Users\ann\AppData\Local`, "AppData": `C:\Users\ann\AppData\Roaming`},
			home: `C:\Users\ann`,
			data: `C:\Users\ann\AppData\Local\Ferry`, config: `C:\Users\ann\AppData\Roaming\Ferry`},
		{name: "windows: without the variables, the profile's AppData folders", goos: "windows",
			home: `C:\Users\ann`,
			data: `C:\Users\ann\AppData\Local\Ferry`, config: `C:\Users\ann\AppData\Roaming\Ferry`},
		{name: "windows: a relative LocalAppData is not used", goos: "windows",
			env:  map[string]string{"LocalAppData": `AppData\Local`, "AppData": `D:\Roaming`},
			home: `C:\Users\ann`,
			data: `C:\Users\ann\AppData\Local\Ferry`, config: `D:\Roaming\Ferry`},
		{name: "windows: a profile on a network share", goos: "windows",
			env:  map[string]string{"LocalAppData": `\\srv\home\ann\Local`, "AppData": `\\srv\home\ann\Roaming`},
			data: `\\srv\home\ann\Local\Ferry`, config: `\\srv\home\ann\Roaming\Ferry`},
		{name: "windows: nothing known names USERPROFILE", goos: "windows",
			wantBadInput: true, wantHintNaming: "USERPROFILE"},
		{name: "macos: Application Support holds data and settings", goos: "darwin",
			env:  map[string]string{"XDG_DATA_HOME": "/Users/ann/xdg", "XDG_CONFIG_HOME": "/Users/ann/xdgc"},
			home: "/Users/ann",
			data: "/Users/ann/Library/Application Support/Ferry", config: "/Users/ann/Library/Application Support/Ferry"},
		{name: "macos: no home names HOME", goos: "darwin", wantBadInput: true, wantHintNaming: "HOME"},
		{name: "linux: the XDG defaults under HOME", goos: "linux", home: "/home/ann",
			data: "/home/ann/.local/share/ferry", config: "/home/ann/.config/ferry"},
		{name: "linux: XDG_DATA_HOME and XDG_CONFIG_HOME", goos: "linux", home: "/home/ann",
			env:  map[string]string{"XDG_DATA_HOME": "/data", "XDG_CONFIG_HOME": "/conf"},
			data: "/data/ferry", config: "/conf/ferry"},
		{name: "linux: a relative XDG_CONFIG_HOME is refused as os.UserConfigDir does", goos: "linux", home: "/home/ann",
			env: map[string]string{"XDG_CONFIG_HOME": "rel"}, wantBadInput: true, wantHintNaming: "XDG_CONFIG_HOME"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := machine{
				goos:   c.goos,
				getenv: func(k string) string { return c.env[k] },
				home: func() (string, error) {
					if c.home == "" {
						return "", errors.New("no home")
					}
					return c.home, nil
				},
			}
			p, err := resolvePaths(m, "")
			if c.wantBadInput {
				e := errs.From(err)
				if e == nil || e.Code != errs.BadInput || !strings.Contains(e.RetryHint, c.wantHintNaming) {
					t.Fatalf("got %+v, %v; want bad_input naming %s", p, e, c.wantHintNaming)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if p.DataDir != c.data || p.ConfigDir != c.config || p.DataSource != SourceDefault || p.ConfigSource != SourceDefault {
				t.Fatalf("got %+v\nwant data %s, config %s", p, c.data, c.config)
			}
		})
	}
}
