package cli

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestEveryCommandAHintNamesExists reads every message and hint in Ferry's
// Go sources that names a `ferry <command>` and checks that the command
// exists (clihost's are linked into this test binary, as into ferry).
func TestEveryCommandAHintNamesExists(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	named := regexp.MustCompile("`ferry ([a-z][a-z-]*)")
	seen := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "node_modules", "frontend", "testdata", ".git", "build":
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range named.FindAllStringSubmatch(string(b), -1) {
			seen++
			if _, ok := commands[m[1]]; !ok {
				rel, _ := filepath.Rel(root, path)
				t.Errorf("%s names `ferry %s`, which is no command", rel, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen < 50 {
		t.Fatalf("only %d commands named in the sources: the check would prove nothing", seen)
	}
}
