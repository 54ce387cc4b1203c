package core

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestCheckFiles(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, c := openTestService(t, ctx)
	desk := service.Owner(service.FaceDesktop)
	dir := t.TempDir()
	file := func(rel string, size int64) string {
		p := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if _, err := f.WriteString(strings.Repeat("x", int(min(size, 64)))); err != nil {
			t.Fatal(err)
		}
		if err := f.Truncate(size); err != nil { // sparse: a large file costs no disk
			t.Fatal(err)
		}
		return p
	}
	a, b := file("a/util.go", 10), file("b/util.go", 20)
	huge := file("huge.log", 31<<20)

	t.Run("two files with one base name go to Claude under visible names, with sizes and sha256", func(t *testing.T) {
		got, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "claude", Files: []string{a, b}})
		if err != nil {
			t.Fatal(err)
		}
		if !got.OK || got.Error != nil || got.SiteName != "Claude" || got.MaxFileBytes != 30<<20 || len(got.Files) != 2 {
			t.Fatalf("verdict %+v", got)
		}
		if f := got.Files[0]; f.Name != "a__util.go" || f.RenamedFrom != "a/util.go" || f.Bytes != 10 || len(f.SHA256) != 64 || f.Error != nil {
			t.Errorf("a/util.go checks as %+v", f)
		}
		if f := got.Files[1]; f.Name != "b__util.go" || f.Bytes != 20 {
			t.Errorf("b/util.go checks as %+v", f)
		}
	})

	t.Run("a file over Claude's limit carries its refusal and the other file is still named", func(t *testing.T) {
		got, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "claude", Files: []string{a, huge}})
		if err != nil {
			t.Fatal(err)
		}
		if got.OK || got.Error != nil {
			t.Fatalf("verdict OK=%v error=%v, want a refusal of one file only", got.OK, got.Error)
		}
		if f := got.Files[1]; f.Error == nil || f.Error.Code != errs.AttachmentRejected || !strings.Contains(f.Error.Message, "over the Claude limit of 30.0 MiB") || f.Error.Evidence["file"] != "huge.log" {
			t.Errorf("huge.log checks as %+v (%v)", f, f.Error)
		}
		if f := got.Files[0]; f.Error != nil || f.Name != "util.go" {
			t.Errorf("util.go checks as %+v", f)
		}
	})

	t.Run("a site that takes no files refuses the set before reading a byte, and each file is still listed", func(t *testing.T) {
		got, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "deepseek", Files: []string{a}})
		if err != nil {
			t.Fatal(err)
		}
		if got.OK || got.Error == nil || got.Error.Code != errs.CapabilityMissing || len(got.Files) != 1 {
			t.Fatalf("verdict %+v", got)
		}
	})

	t.Run("more files than ChatGPT takes refuses the set", func(t *testing.T) {
		var many []string
		for i := 0; i < 11; i++ {
			many = append(many, file(filepath.Join("many", strings.Repeat("n", i+1)+".txt"), 1))
		}
		got, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "chatgpt", Files: many})
		if err != nil {
			t.Fatal(err)
		}
		if got.OK || got.Error == nil || got.Error.Code != errs.AttachmentRejected || !strings.Contains(got.Error.Message, "11 files are more than ChatGPT takes") {
			t.Fatalf("verdict %+v (%v)", got, got.Error)
		}
	})

	t.Run("the request's own faults are errors, and agents may not ask", func(t *testing.T) {
		if _, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "nosuch", Files: []string{a}}); !errs.Has(err, errs.UnknownSite) {
			t.Errorf("unknown site: %v", err)
		}
		if _, err := s.CheckFiles(ctx, desk, service.FilesCheckRequest{Site: "claude", Files: []string{"util.go"}}); !errs.Has(err, errs.BadInput) {
			t.Errorf("relative path: %v", err)
		}
		agent := pairTestClient(t, ctx, c, "c_files", true)
		if _, err := s.CheckFiles(ctx, agent, service.FilesCheckRequest{Site: "claude", Files: []string{a}}); !errs.Has(err, errs.HubForbidden) {
			t.Errorf("an agent: %v", err)
		}
	})
}
