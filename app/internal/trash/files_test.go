package trash

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/service"
)

func TestARunsSavedFilesSayWhetherTheyAreStillThere(t *testing.T) {
	home := t.TempDir()
	env := func(k string) string {
		if k == "HOME" {
			return home
		}
		return ""
	}
	dir := t.TempDir()
	mk := func(name string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte("zip"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	here, trashed, gone := mk("here.zip"), mk("trashed.zip"), mk("gone.zip")
	if _, err := moveToTrash(trashed, env); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	run := &service.Run{Artifacts: []record.Artifact{
		{Name: "here.zip", Path: here, Verdict: "verified"},
		{Name: "trashed.zip", Path: trashed, Verdict: "verified"},
		{Name: "gone.zip", Path: gone, Verdict: "verified"},
		{Name: "never.zip"},
	}}
	MarkFiles(run, env)
	for i, want := range []string{"", record.FileTrashed, record.FileMissing, ""} {
		if got := run.Artifacts[i].File; got != want {
			t.Errorf("%s reads %q, want %q", run.Artifacts[i].Name, got, want)
		}
	}
}
