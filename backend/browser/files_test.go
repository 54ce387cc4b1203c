package browser

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestSetFilesEndsAtTheDeadlineOfAPageThatStopsAnswering: a page whose
// change handler opens a modal dialog answers nothing more, neither the
// upload nor the release of the input it was handed; SetFiles still ends
// at its caller's deadline, with the timeout.
func TestSetFilesEndsAtTheDeadlineOfAPageThatStopsAnswering(t *testing.T) {
	p := newTab(t, "/dialog_on_change.html")
	f := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(f, []byte("remember the milk\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- p.SetFiles(testCtx(t, 2*time.Second), []string{"#file"}, []string{f}) }()
	select {
	case err := <-done:
		if !errs.Has(err, errs.Timeout) {
			t.Fatalf("SetFiles: %v, want the timeout", err)
		}
	case <-time.After(time.Minute): // only a hang gets here
		t.Fatal("SetFiles still waits on the page a minute after its deadline")
	}
}
