package autostart

import (
	"crypto/rand"
	"encoding/hex"
	"testing"

	"golang.org/x/sys/windows/registry"
)

// The Run key's round trip on a key of the test's own under HKCU (never the
// user's real Run key).
func TestRunKeyRoundTrip(t *testing.T) {
	b := make([]byte, 6)
	_, _ = rand.Read(b)
	parent := `Software\FerryTest-` + hex.EncodeToString(b)
	k := runKey{path: parent + `\Run`}
	t.Cleanup(func() {
		_ = registry.DeleteKey(registry.CURRENT_USER, k.path)
		_ = registry.DeleteKey(registry.CURRENT_USER, parent)
	})
	if on, err := k.Enabled(); on || err != nil {
		t.Fatalf("Enabled before any write = %v, %v; want false, nil", on, err)
	}
	exe := `C:\Program Files\Ferry\ferry-desktop.exe`
	if err := k.Set(exe, true); err != nil {
		t.Fatalf("Set(on): %v", err)
	}
	if on, err := k.Enabled(); !on || err != nil {
		t.Fatalf("Enabled after Set(on) = %v, %v; want true", on, err)
	}
	key, err := registry.OpenKey(registry.CURRENT_USER, k.path, registry.QUERY_VALUE)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := key.GetStringValue(runKeyValue)
	key.Close()
	if want := `"C:\Program Files\Ferry\ferry-desktop.exe" --hidden`; err != nil || got != want {
		t.Errorf("the Run value = %q, %v; want %q", got, err, want)
	}
	if err := k.Set(exe, false); err != nil {
		t.Fatalf("Set(off): %v", err)
	}
	if on, err := k.Enabled(); on || err != nil {
		t.Errorf("Enabled after Set(off) = %v, %v; want false", on, err)
	}
	if err := k.Set(exe, false); err != nil {
		t.Errorf("Set(off) again: %v", err)
	}
}
