package attach

import (
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestCheck(t *testing.T) {
	dir := t.TempDir()
	a := write(t, dir, "a/util.go", "package a\n")
	b := write(t, dir, "b/util.go", "package b\n")
	big := write(t, dir, "c/util.go", strings.Repeat("x", 2048))
	notes := write(t, dir, "notes.txt", "hello")

	code := func(err error) errs.Code {
		var e *errs.Envelope
		if errors.As(err, &e) {
			return e.Code
		}
		return ""
	}

	t.Run("a file over the size limit is refused on its own and the others are still named and hashed", func(t *testing.T) {
		got, whole := Check([]string{a, big, notes}, Limits{MaxFileBytes: 1024}, "Claude")
		if whole != nil {
			t.Fatalf("the set is refused: %v", whole)
		}
		if got[0].Err != nil || got[2].Err != nil || got[0].Name != "util.go" || got[2].Name != "notes.txt" {
			t.Fatalf("the small files read %+v and %+v", got[0], got[2])
		}
		if got[0].SHA256 == "" || got[0].Bytes != int64(len("package a\n")) {
			t.Errorf("util.go has size %d and sha256 %q", got[0].Bytes, got[0].SHA256)
		}
		if code(got[1].Err) != errs.AttachmentRejected || !strings.Contains(got[1].Err.Error(), "over the Claude limit of 1.0 KiB") {
			t.Errorf("the large file's verdict is %v", got[1].Err)
		}
		if got[1].Bytes != 0 || got[1].Name != "util.go" {
			t.Errorf("the refused file reads %+v, want its base name and no size claimed", got[1].File)
		}
	})

	t.Run("two accepted files with one base name are both renamed, as Prepare renames them", func(t *testing.T) {
		got, whole := Check([]string{a, b, notes}, Limits{}, "ChatGPT")
		if whole != nil {
			t.Fatal(whole)
		}
		prepared, err := Prepare([]string{a, b, notes}, Limits{}, "ChatGPT")
		if err != nil {
			t.Fatal(err)
		}
		for i := range got {
			if got[i].Err != nil || !reflect.DeepEqual(got[i].File, prepared[i]) {
				t.Errorf("file %d checks as %+v, Prepare gives %+v", i, got[i], prepared[i])
			}
		}
		if got[0].Name != "a__util.go" || got[0].RenamedFrom != "a/util.go" {
			t.Errorf("a/util.go is sent as %q (from %q)", got[0].Name, got[0].RenamedFrom)
		}
	})

	t.Run("more files than the site takes refuses the set and still gives each file's size", func(t *testing.T) {
		got, whole := Check([]string{a, b, notes}, Limits{MaxFiles: 2}, "Gemini")
		if code(whole) != errs.AttachmentRejected || !strings.Contains(whole.Error(), "3 files are more than Gemini takes in one message (2)") {
			t.Fatalf("the set's verdict is %v", whole)
		}
		if len(got) != 3 || got[2].Bytes != 5 {
			t.Errorf("the files read %+v", got)
		}
	})

	t.Run("a missing, relative or repeated path is refused alone", func(t *testing.T) {
		got, whole := Check([]string{notes, dir + "/gone.txt", "rel.txt", notes}, Limits{}, "ChatGPT")
		if whole != nil {
			t.Fatal(whole)
		}
		if got[0].Err != nil {
			t.Errorf("notes.txt is refused: %v", got[0].Err)
		}
		for i := 1; i < 4; i++ {
			if code(got[i].Err) != errs.BadInput {
				t.Errorf("path %d (%s) checks as %v, want bad_input", i, got[i].Path, got[i].Err)
			}
		}
	})

	t.Run("no file is bad input", func(t *testing.T) {
		if _, whole := Check(nil, Limits{}, "ChatGPT"); code(whole) != errs.BadInput {
			t.Errorf("no file checks as %v", whole)
		}
	})
}
