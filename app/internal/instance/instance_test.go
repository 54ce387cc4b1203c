package instance

import (
	"regexp"
	"testing"
)

func TestInstanceNameIsOnePerDataDirectory(t *testing.T) {
	base := instanceName(`C:\Users\ann\AppData\Local\Ferry`)
	if !regexp.MustCompile(`^Local\\Ferry-[0-9a-f]{16}$`).MatchString(base) {
		t.Fatalf("instanceName = %q, want Local\\Ferry-<16 hex digits>", base)
	}
	for _, same := range []string{`c:\users\ANN\appdata\local\ferry`, `C:\Users\ann\AppData\Local\Ferry\`, `C:/Users/ann/AppData/Local/Ferry`} {
		if got := instanceName(same); got != base {
			t.Errorf("instanceName(%q) = %q, want %q (the same directory)", same, got, base)
		}
	}
	for _, other := range []string{`C:\Users\bob\AppData\Local\Ferry`, `D:\Ferry`, `C:\Users\ann\AppData\Local\Ferry-demo`} {
		if got := instanceName(other); got == base {
			t.Errorf("instanceName(%q) = %q, the same as another directory's", other, got)
		}
	}
}
