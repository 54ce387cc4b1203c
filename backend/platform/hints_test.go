package platform

import (
	"strings"
	"testing"
)

func TestHintsNameEachPlatformsOwnFix(t *testing.T) {
	others := map[string][]string{
		"windows": {"apt-get", "brew", "/Applications", "dnf"},
		"darwin":  {"apt-get", "winget", `C:\`, "dnf"},
		"linux":   {"winget", "brew", `C:\`, "/Applications"},
	}
	cases := []struct {
		name string
		hint func(string) string
		want map[string][]string
	}{
		{"BrowserInstall", BrowserInstall, map[string][]string{
			"windows": {"winget install Google.Chrome", "Edge", `--chromium "C:\`, "msedge.exe"},
			"darwin":  {"/Applications", "brew install --cask", "--chromium"},
			"linux":   {"apt-get install chromium", "--chromium"},
		}},
		{"BrowserSetting", BrowserSetting, map[string][]string{
			"windows": {"winget", "browser.binary", "msedge.exe"},
			"darwin":  {"/Applications", "brew install --cask", "browser.binary"},
			"linux":   {"apt-get install chromium", "browser.binary"},
		}},
		{"GitInstall", GitInstall, map[string][]string{
			"windows": {"winget install Git.Git"},
			"darwin":  {"xcode-select --install", "brew install git"},
			"linux":   {"apt-get install git"},
		}},
	}
	for _, c := range cases {
		for goos, wants := range c.want {
			t.Run(c.name+"/"+goos, func(t *testing.T) {
				h := c.hint(goos)
				for _, w := range wants {
					if !strings.Contains(h, w) {
						t.Errorf("%s(%s) = %q lacks %q", c.name, goos, h, w)
					}
				}
				for _, o := range others[goos] {
					if strings.Contains(h, o) {
						t.Errorf("%s(%s) = %q names another platform's %q", c.name, goos, h, o)
					}
				}
			})
		}
	}
}

func TestPrivateDirFix(t *testing.T) {
	if got := PrivateDir("linux", "/home/ann/.local/share/ferry"); got != "chmod 700 /home/ann/.local/share/ferry" {
		t.Fatalf("linux: %q", got)
	}
	if got := PrivateDir("darwin", "/Users/ann/Library/Application Support/Ferry"); !strings.HasPrefix(got, "chmod 700 ") {
		t.Fatalf("darwin: %q", got)
	}
	got := PrivateDir("windows", `C:\Users\ann\AppData\Local\Ferry`)
	if !strings.Contains(got, `icacls "C:\Users\ann\AppData\Local\Ferry" /inheritance:r`) || strings.Contains(got, "chmod") {
		t.Fatalf("windows: %q", got)
	}
}

func TestFreeSpaceHow(t *testing.T) {
	if got := FreeSpace("linux", "/data"); got != "`df -h /data` shows it" {
		t.Fatalf("linux: %q", got)
	}
	if got := FreeSpace("darwin", ""); got != "`df -h DIR` shows it" {
		t.Fatalf("darwin: %q", got)
	}
	for _, dir := range []string{`D:\Ferry`, ""} {
		got := FreeSpace("windows", dir)
		if strings.Contains(got, "df -h") || !strings.Contains(got, "Explorer") || !strings.Contains(got, dir) {
			t.Fatalf("windows %q: %q", dir, got)
		}
	}
}
