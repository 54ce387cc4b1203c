package prompt

import (
	"archive/zip"
	"context"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// TestCleanSourcesZipsTheTrackedFilesAtHead: sources sent as a zip need no
// upstream, and the zip holds exactly the tracked files under the paths,
// with the bytes of the commit (an ignored file beside them stays out).
func TestCleanSourcesZipsTheTrackedFilesAtHead(t *testing.T) {
	work, git := gitRepo(t)
	os.WriteFile(filepath.Join(work, ".gitignore"), []byte("*.tmp\n"), 0o644)
	os.WriteFile(filepath.Join(work, "backend", "api", "api_test.go"), []byte("package api\n\nfunc TestX() {}\n"), 0o644)
	git("add", ".")
	git("commit", "-q", "-m", "second")
	git("switch", "-q", "-c", "local-only")
	os.WriteFile(filepath.Join(work, "backend", "api", "scratch.tmp"), []byte("ignored"), 0o644)

	tree, err := CleanSources(context.Background(), work, []string{"backend", "go.mod"})
	if err != nil {
		t.Fatalf("CleanSources on a branch without upstream: %v", err)
	}
	if tree.Commit != git("rev-parse", "HEAD") || !reflect.DeepEqual(tree.Paths, []string{"backend", "go.mod"}) {
		t.Fatalf("tree %+v", tree)
	}
	path, err := tree.Zip(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if want := filepath.Base(work) + "-" + tree.Commit[:12] + ".zip"; filepath.Base(path) != want {
		t.Fatalf("zip named %s, want %s", filepath.Base(path), want)
	}
	got := zipFiles(t, path)
	want := map[string]string{}
	for _, name := range strings.Split(git("ls-files", "--", "backend", "go.mod"), "\n") {
		want[name] = git("show", "HEAD:"+name)
	}
	if len(got) != len(want) {
		t.Fatalf("zip holds %v, want %v", keys(got), keys(want))
	}
	for name, body := range want {
		if strings.TrimSpace(got[name]) != body {
			t.Fatalf("%s in the zip is %q, want %q", name, got[name], body)
		}
	}
}

func TestCleanSourcesRefusesChangedFilesNamingThem(t *testing.T) {
	work, _ := gitRepo(t)
	os.WriteFile(filepath.Join(work, "go.mod"), []byte("module changed\n"), 0o644)
	os.WriteFile(filepath.Join(work, "backend", "api", "new.go"), []byte("package api\n"), 0o644)
	_, err := CleanSources(context.Background(), work, []string{"."})
	if !errs.Has(err, errs.BadInput) {
		t.Fatalf("err = %v, want bad_input", err)
	}
	e := errs.From(err)
	for _, want := range []string{"M go.mod", "?? backend/api/new.go"} {
		if !strings.Contains(e.Message, want) {
			t.Errorf("message %q does not name %q", e.Message, want)
		}
	}
	if !strings.Contains(e.RetryHint, "commit or stash") || strings.Contains(e.RetryHint, "push") {
		t.Errorf("hint %q", e.RetryHint)
	}
}

// TestZipSourcesLeavesNothingBehind: the zip of a run's sources lies
// alone in a private temporary directory that remove deletes, and a refused
// tree leaves no directory.
func TestZipSourcesLeavesNothingBehind(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	work, _ := gitRepo(t)
	t.Run("a clean tree's zip lies in a private directory that remove deletes", func(t *testing.T) {
		path, remove, err := ZipSources(context.Background(), work, []string{"go.mod"})
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Dir(path)
		if filepath.Dir(dir) != tmp || !strings.HasPrefix(filepath.Base(dir), "ferry-sources-") {
			t.Fatalf("zip at %s, want it in a directory of its own under %s", path, tmp)
		}
		if st, err := os.Stat(dir); err != nil || st.Mode().Perm()&0o077 != 0 {
			t.Fatalf("the zip's directory: %v, %v", st, err)
		}
		if got := zipFiles(t, path); len(got) != 1 || strings.TrimSpace(got["go.mod"]) == "" {
			t.Fatalf("zip holds %v, want go.mod", keys(got))
		}
		remove()
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Fatalf("the zip's directory after remove: %v", err)
		}
	})
	t.Run("a changed tree is refused and leaves no directory", func(t *testing.T) {
		os.WriteFile(filepath.Join(work, "go.mod"), []byte("module changed\n"), 0o644)
		path, remove, err := ZipSources(context.Background(), work, []string{"go.mod"})
		remove()
		if !errs.Has(err, errs.BadInput) || path != "" {
			t.Fatalf("ZipSources of a changed tree: %q, %v", path, err)
		}
		if left, _ := filepath.Glob(filepath.Join(tmp, "ferry-sources-*")); len(left) != 0 {
			t.Fatalf("left behind: %v", left)
		}
	})
}

// zipFiles reads the regular files of a zip: name to content.
func zipFiles(t *testing.T, path string) map[string]string {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]string{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = string(b)
	}
	return out
}

func keys(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
