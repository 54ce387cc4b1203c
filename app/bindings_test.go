package app

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"testing"
)

const regenerateBindings = "regenerate them from the repository root with " +
	"`d=$(mktemp -d) && go build -tags bindings -o $d/wb . && $d/wb` and commit frontend/wailsjs"

// TestBindingsAreCurrent regenerates frontend/wailsjs from the bound structs
// (the bindings-tag binary, no Wails CLI, no display) into a scratch project
// and compares it with the committed copy, so a changed Go signature cannot
// ship with stale TypeScript.
func TestBindingsAreCurrent(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	scratch := t.TempDir()
	gen := filepath.Join(scratch, "wb")
	build := exec.Command("go", "build", "-tags", "bindings", "-o", gen, ".")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("build the bindings generator: %v\n%s", err, out)
	}
	// The generator writes next to the wails.json in its working directory.
	project := filepath.Join(scratch, "project")
	if err := os.MkdirAll(filepath.Join(project, "frontend"), 0o755); err != nil {
		t.Fatal(err)
	}
	wailsJSON, err := os.ReadFile(filepath.Join(root, "wails.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, "wails.json"), wailsJSON, 0o644); err != nil {
		t.Fatal(err)
	}
	run := exec.Command(gen)
	run.Dir = project
	if out, err := run.CombinedOutput(); err != nil {
		t.Fatalf("run the bindings generator: %v\n%s", err, out)
	}

	want := readTree(t, filepath.Join(project, "frontend", "wailsjs"))
	got := readTree(t, filepath.Join(root, "frontend", "wailsjs"))
	if len(want) == 0 {
		t.Fatal("the generator wrote no bindings")
	}
	var stale []string
	for name, content := range want {
		if c, ok := got[name]; !ok {
			stale = append(stale, "missing "+name)
		} else if !bytes.Equal(c, content) {
			stale = append(stale, "differs "+name)
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok {
			stale = append(stale, "extra "+name)
		}
	}
	sort.Strings(stale)
	if len(stale) > 0 {
		t.Errorf("frontend/wailsjs is stale (%v): %s", stale, regenerateBindings)
	}
}

// readTree maps every file under dir (by slash path) to its content.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	files := map[string][]byte{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = b
		return nil
	})
	if err != nil {
		t.Fatalf("read %s: %v", dir, err)
	}
	return files
}
