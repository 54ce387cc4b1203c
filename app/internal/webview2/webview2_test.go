package webview2

import (
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestWebview2ProblemNamesTheDownload(t *testing.T) {
	for _, v := range []string{"", "93.0.961.52", "94.0.992.30"} {
		t.Run("runtime "+v+" is not enough and the message links the download", func(t *testing.T) {
			e := webview2Problem(v)
			if e == nil || e.Code != errs.EnvironmentNotReady {
				t.Fatalf("webview2Problem(%q) = %v, want environment_not_ready", v, e)
			}
			if !strings.Contains(e.RetryHint, webview2DownloadURL) || e.Evidence["url"] != webview2DownloadURL {
				t.Errorf("the hint does not link the download page: %+v", e)
			}
			if strings.Contains(e.RetryHint, "apt-get") {
				t.Errorf("a Windows hint names apt-get: %q", e.RetryHint)
			}
		})
	}
	for _, v := range []string{"94.0.992.31", "120.0.2210.91", "131.0.2903.70 beta", "100.0"} {
		if e := webview2Problem(v); e != nil {
			t.Errorf("webview2Problem(%q) = %v, want nil", v, e)
		}
	}
	if got := webview2Dir(`C:\Users\ann\AppData\Local\Ferry`); got != `C:\Users\ann\AppData\Local\Ferry\webview2` {
		t.Errorf("webview2Dir = %q", got)
	}
}
