package app

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

// fakePicker answers the open dialog with paths, or cancels with none.
type fakePicker struct {
	paths []string
	asked []string
}

func (f *fakePicker) OpenFiles(title string) ([]string, error) {
	f.asked = append(f.asked, title)
	return f.paths, nil
}

func TestAttachments(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	pick := &fakePicker{}
	att := &Attachments{sh: sh, pick: pick}
	dir := t.TempDir()
	write := func(rel string, size int) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(strings.Repeat("x", size)), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	a, b := write("a/util.go", 12), write("b/util.go", 34)

	t.Run("the picker's choice comes back as clean absolute paths, and a cancel as none", func(t *testing.T) {
		pick.paths = []string{a, filepath.Join(dir, "b", "..", "b", "util.go"), ""}
		got, err := att.Pick()
		if err != nil || !reflect.DeepEqual(got, []string{a, b}) {
			t.Fatalf("Pick = %v, %v", got, err)
		}
		if len(pick.asked) != 1 || pick.asked[0] != "Attach files" {
			t.Errorf("the dialog was asked %v", pick.asked)
		}
		pick.paths = nil
		if got, err := att.Pick(); err != nil || got == nil || len(got) != 0 {
			t.Errorf("a cancelled dialog gives %#v, %v; want an empty list", got, err)
		}
	})

	t.Run("the check names both files of one base name as they will be sent, with their sizes", func(t *testing.T) {
		got, err := att.Check(service.FilesCheckRequest{Site: "chatgpt", Files: []string{a, b}})
		if err != nil {
			t.Fatal(err)
		}
		if !got.OK || len(got.Files) != 2 || got.Files[0].Name != "a__util.go" || got.Files[1].Name != "b__util.go" || got.Files[1].Bytes != 34 {
			t.Fatalf("check %+v", got)
		}
	})

	t.Run("a request without a site is refused as bad input", func(t *testing.T) {
		if _, err := att.Check(service.FilesCheckRequest{Files: []string{a}}); !errs.Has(err, errs.BadInput) {
			t.Fatalf("no site: %v", err)
		}
	})

	t.Run("a run's files go into the job request, blanks dropped", func(t *testing.T) {
		req, err := jobRequestOf(RunSpec{Site: "chatgpt", Prompt: "look", Files: []string{a, " ", b}})
		if err != nil || !reflect.DeepEqual(req.Files, []string{a, b}) {
			t.Fatalf("request files %v, %v", req.Files, err)
		}
	})
}
