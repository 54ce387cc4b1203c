package instance

import (
	"testing"
	"time"
)

// A second claim of the same data directory is refused and wakes the
// first, which then shows its window; a quiet one (a start at login)
// wakes nothing; after release the directory can be claimed again.
func TestNamedMutexGuardKeepsOneWindowPerDataDirectory(t *testing.T) {
	// Names only: the guard never touches the directory.
	dir := `C:\FerryTest\` + time.Now().Format("150405.000000000") + `\data`
	shown := make(chan struct{}, 4)
	first, release, err := namedMutexGuard{}.Claim(dir, false, func() { shown <- struct{}{} })
	if err != nil || !first {
		t.Fatalf("first Claim = %v, %v; want first", first, err)
	}
	again, _, err := namedMutexGuard{}.Claim(dir, false, func() { t.Error("the second start's onSecond ran") })
	if err != nil || again {
		t.Fatalf("second Claim = %v, %v; want not first", again, err)
	}
	select {
	case <-shown:
	case <-time.After(30 * time.Second):
		t.Fatal("the first window was not asked to show itself")
	}
	if quiet, _, err := (namedMutexGuard{}).Claim(dir, true, nil); err != nil || quiet {
		t.Fatalf("quiet second Claim = %v, %v; want not first", quiet, err)
	}
	other, releaseOther, err := namedMutexGuard{}.Claim(dir+"-other", false, func() {})
	if err != nil || !other {
		t.Fatalf("another directory's Claim = %v, %v; want first", other, err)
	}
	releaseOther()
	release()
	select {
	case <-shown:
		t.Error("a quiet start asked the window to show")
	default:
	}
	back, releaseBack, err := namedMutexGuard{}.Claim(dir, false, func() {})
	if err != nil || !back {
		t.Fatalf("Claim after release = %v, %v; want first", back, err)
	}
	releaseBack()
}
