package testsite

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestNoFileOutsideThisFolderNamesTheSite makes the claim of this package a
// check: a site is one folder. No source file of the module outside this
// folder mentions the test site, so adding it needed no edit elsewhere.
func TestNoFileOutsideThisFolderNamesTheSite(t *testing.T) {
	here, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	root := here
	for {
		if _, err := os.Stat(filepath.Join(root, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(root)
		if parent == root {
			t.Fatal("no go.mod above the test's folder")
		}
		root = parent
	}
	source := map[string]bool{".go": true, ".js": true, ".ts": true, ".svelte": true, ".json": true}
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if p == here || strings.HasPrefix(d.Name(), ".") || d.Name() == "node_modules" {
				return filepath.SkipDir
			}
			return nil
		}
		if !source[filepath.Ext(p)] {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		for _, name := range []string{"testsite", "chat.testsite.example"} {
			if bytes.Contains(b, []byte(name)) {
				t.Errorf("%s names the test site (%q): a site must need no edit outside its folder", p, name)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
