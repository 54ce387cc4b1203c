package wording

import (
	"strings"
	"testing"
)

func TestBrowserNotFoundHintNamesEachPlatformsFix(t *testing.T) {
	cases := []struct{ goos, says, never string }{
		{"linux", "apt-get install chromium", "winget"},
		{"windows", "winget install", "apt-get"},
		{"darwin", "/Applications", "apt-get"},
	}
	for _, c := range cases {
		t.Run(c.goos+" names its own fix", func(t *testing.T) {
			h := browserNotFoundHint(c.goos)
			if !strings.Contains(h, c.says) || strings.Contains(h, c.never) || !strings.Contains(h, "Settings → Browser") {
				t.Errorf("browserNotFoundHint(%q) = %q, want %q and the setting, never %q", c.goos, h, c.says, c.never)
			}
		})
	}
}
