package launch

import "testing"

// What each browser prints for --version on Linux and macOS is its
// version line, past a wrapper's noise.
func TestTheVersionLineOfEachBrowser(t *testing.T) {
	for out, want := range map[string]string{
		"[: 1: unexpected operator\nChromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)\n": "Chromium 156.0.8078.108 built on Debian GNU/Linux 12 (bookworm)",
		"Google Chrome 131.0.6778.85 \n":      "Google Chrome 131.0.6778.85",
		"Microsoft Edge 131.0.2903.86\n":      "Microsoft Edge 131.0.2903.86",
		"Brave Browser 131.1.73.91\n":         "Brave Browser 131.1.73.91",
		"Chromium 131.0.6778.85 Arch Linux\n": "Chromium 131.0.6778.85 Arch Linux",
		"Microsoft Edge 131.0.2903.86 beta\n": "Microsoft Edge 131.0.2903.86 beta",
	} {
		m := versionLine.FindStringSubmatch(out)
		if m == nil || m[1] != want {
			t.Errorf("version line of %q: %q, want %q", out, m, want)
		}
	}
	if m := versionLine.FindStringSubmatch("Opening in existing browser session.\n"); m != nil {
		t.Errorf("a line without a version was taken: %q", m)
	}
}
