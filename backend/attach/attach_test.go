package attach

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func write(t *testing.T, dir, rel, body string) string {
	t.Helper()
	p := filepath.Join(dir, rel)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestPrepare(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a/util.go", "package a\n")
	b := write(t, dir, "b/util.go", "package b\n")
	c := write(t, dir, "notes.txt", "hello")
	big := write(t, dir, "big.bin", strings.Repeat("x", 2048))

	t.Run("files with the same base name are both kept under visible names", func(t *testing.T) {
		files, err := Prepare([]string{a, b, c}, Limits{MaxFiles: 10}, "ChatGPT")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Names(files), []string{"a__util.go", "b__util.go", "notes.txt"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("names %v, want %v", got, want)
		}
		if files[0].RenamedFrom != "a/util.go" || files[2].Renamed() {
			t.Fatalf("renamed from %q / %v", files[0].RenamedFrom, files[2].Renamed())
		}
		if files[2].Bytes != 5 || files[2].SHA256 != "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
			t.Fatalf("size/hash %d %s", files[2].Bytes, files[2].SHA256)
		}
		p := WithRenameNote("explain", files)
		if !strings.Contains(p, "a__util.go is a/util.go") || !strings.Contains(p, "b__util.go is b/util.go") || strings.Contains(p, dir) {
			t.Fatalf("prompt %q", p)
		}
	})
	t.Run("same base name under same-named directories takes more directories", func(t *testing.T) {
		x := write(t, dir, "x/pkg/util.go", "1")
		y := write(t, dir, "y/pkg/util.go", "2")
		files, err := Prepare([]string{x, y}, Limits{}, "Claude")
		if err != nil {
			t.Fatal(err)
		}
		if got, want := Names(files), []string{"x__pkg__util.go", "y__pkg__util.go"}; !reflect.DeepEqual(got, want) {
			t.Fatalf("names %v, want %v", got, want)
		}
	})
	cases := []struct {
		name  string
		paths []string
		lim   Limits
		code  errs.Code
	}{
		{"too many files is refused before anything is attached", []string{a, b, c}, Limits{MaxFiles: 2}, errs.AttachmentRejected},
		{"a file over the size limit is refused", []string{c, big}, Limits{MaxFileBytes: 1024}, errs.AttachmentRejected},
		{"a directory is not a file", []string{dir}, Limits{}, errs.BadInput},
		{"a missing file is bad input", []string{filepath.Join(dir, "nope")}, Limits{}, errs.BadInput},
		{"a relative path is bad input", []string{"notes.txt"}, Limits{}, errs.BadInput},
		{"the same file twice is bad input", []string{c, c}, Limits{}, errs.BadInput},
		{"no file is bad input", nil, Limits{}, errs.BadInput},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Prepare(tc.paths, tc.lim, "ChatGPT")
			if errs.CodeOf(err) != tc.code {
				t.Fatalf("err %v, want %s", err, tc.code)
			}
		})
	}
	t.Run("the refusal names the file", func(t *testing.T) {
		_, err := Prepare([]string{big}, Limits{MaxFileBytes: 1024}, "ChatGPT")
		if e := errs.From(err); e.Evidence["file"] != "big.bin" {
			t.Fatalf("evidence %v", e.Evidence)
		}
	})
}

func TestExpand(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "src/a.go", "a")
	write(t, dir, "src/b.go", "b")
	write(t, dir, "src/b_test.go", "bt")
	write(t, dir, "src/gen/c.go", "c")
	write(t, dir, "src/.git/config", "x")
	write(t, dir, "log.txt", "l")
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	cases := []struct {
		name    string
		entries []string
		want    []string
	}{
		{"a directory gives its files but not hidden directories", []string{"src"}, []string{"src/a.go", "src/b.go", "src/b_test.go", "src/gen/c.go"}},
		{"an exclusion by base-name pattern drops files", []string{"src", "!*_test.go"}, []string{"src/a.go", "src/b.go", "src/gen/c.go"}},
		{"an exclusion of a directory drops what is under it", []string{"src", "!gen"}, []string{"src/a.go", "src/b.go", "src/b_test.go"}},
		{"a glob gives its matches", []string{"src/*.go", "log.txt"}, []string{"log.txt", "src/a.go", "src/b.go", "src/b_test.go"}},
		{"a file named twice is kept once", []string{"log.txt", filepath.Join(dir, "log.txt")}, []string{"log.txt"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Expand(dir, tc.entries)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(rel(got), tc.want) {
				t.Fatalf("got %v, want %v", rel(got), tc.want)
			}
		})
	}
	for _, bad := range [][]string{{"missing.go"}, {"src/*.rs"}, {"log.txt", "!log.txt"}} {
		if _, err := Expand(dir, bad); errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("Expand %v: %v, want bad_input", bad, err)
		}
	}
}

func TestBundle(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a.md", "one\n```go\nx\n```\n")
	bin := write(t, dir, "b.bin", "a\x00b")
	t.Run("text files are pasted fenced and numbered under their paths", func(t *testing.T) {
		out, err := Bundle("review this", dir, []string{a}, 0)
		if err != nil {
			t.Fatal(err)
		}
		want := "review this\n\n### a.md\n````\n1  one\n2  ```go\n3  x\n4  ```\n````"
		if out != want {
			t.Fatalf("got\n%s\nwant\n%s", out, want)
		}
	})
	t.Run("a bundle over the site's prompt limit is refused with its size", func(t *testing.T) {
		_, err := Bundle("review this", dir, []string{a}, 20)
		e := errs.From(err)
		if e.Code != errs.PromptTooLarge || e.Evidence["bytes"] == "" {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a binary file is not inlined", func(t *testing.T) {
		if _, err := Bundle("x", dir, []string{bin}, 0); errs.CodeOf(err) != errs.BadInput {
			t.Fatalf("err %v", err)
		}
	})
}
