package safetext

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestEscapesOnlyForATerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "log"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	for name, out := range map[string]io.Writer{"a file": f, "a pipe": w, "a buffer": &bytes.Buffer{}} {
		if Escapes(out) {
			t.Errorf("Escapes(%s) is true", name)
		}
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	// /dev/null and NUL are character devices, not terminals.
	if Escapes(null) {
		t.Errorf("Escapes(%s) is true", os.DevNull)
	}
}
