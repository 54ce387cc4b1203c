package hubfile_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
)

func sample() hubfile.File {
	return hubfile.File{Port: 4242, Token: "owner.secretsecretsecret", PID: os.Getpid(), StartedAt: time.Unix(1700000000, 0).UTC()}
}

func TestWriteIsPrivateAtomicAndReadable(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "hub.json")
	os.WriteFile(p, []byte("old"), 0o600)
	if err := hubfile.Write(p, sample()); err != nil {
		t.Fatal(err)
	}
	fi, _ := os.Stat(p)
	if fi.Mode().Perm() != 0o600 {
		t.Fatalf("mode %o", fi.Mode().Perm())
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("leftovers: %v", entries)
	}
	got, err := hubfile.Read(p)
	if err != nil || got != sample() {
		t.Fatalf("read back %v %v", got, err)
	}
	if strings.Contains(got.String()+got.GoString(), got.Token) {
		t.Fatal("String prints the token")
	}
}

func TestReadRefusesUnsafeOrBrokenFiles(t *testing.T) {
	cases := []struct {
		name  string
		setup func(p string)
	}{
		{"a file others can read", func(p string) { hubfile.Write(p, sample()); os.Chmod(p, 0o644) }},
		{"a file that is not JSON", func(p string) { os.WriteFile(p, []byte("{"), 0o600) }},
		{"a file without a token", func(p string) { os.WriteFile(p, []byte(`{"port":1,"pid":1}`), 0o600) }},
		{"a symlink", func(p string) {
			target := p + ".real"
			hubfile.Write(target, sample())
			os.Symlink(target, p)
		}},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused with a fix", func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "hub.json")
			c.setup(p)
			_, err := hubfile.Read(p)
			if !errs.Has(err, errs.BadInput) || !strings.Contains(err.(*errs.Envelope).RetryHint+err.Error(), "hub") {
				t.Fatalf("Read: %v", err)
			}
		})
	}
}

func TestRemoveIfOwnedKeepsAnotherOwnersFile(t *testing.T) {
	p := filepath.Join(t.TempDir(), "hub.json")
	f := sample()
	hubfile.Write(p, f)
	if err := hubfile.RemoveIfOwned(p, f.PID, "owner.other"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); err != nil {
		t.Fatal("a file with another token was removed")
	}
	if err := hubfile.RemoveIfOwned(p, f.PID, f.Token); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(p); !os.IsNotExist(err) {
		t.Fatal("our own file was kept")
	}
	if err := hubfile.RemoveIfOwned(p, f.PID, f.Token); err != nil {
		t.Fatalf("removing a missing file: %v", err)
	}
}
