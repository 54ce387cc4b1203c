package hubfile_test

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/hub/hubfile"
	"github.com/ferrydesk/ferry/backend/platform"
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
	assertOwnerOnly(t, p)
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
		setup func(t *testing.T, p string)
	}{
		{"a file others can read", func(t *testing.T, p string) {
			if platform.UnderWine() {
				// Wine (8.0) keeps no file DACLs: no file can be shown to
				// others, or kept from them, there.
				t.Skip("Wine keeps no file DACLs")
			}
			hubfile.Write(p, sample())
			exposeToOthers(t, p)
		}},
		{"a file that is not JSON", func(t *testing.T, p string) { os.WriteFile(p, []byte("{"), 0o600) }},
		{"a file without a token", func(t *testing.T, p string) { os.WriteFile(p, []byte(`{"port":1,"pid":1}`), 0o600) }},
		{"a symlink", func(t *testing.T, p string) {
			target := p + ".real"
			hubfile.Write(target, sample())
			if err := os.Symlink(target, p); err != nil && runtime.GOOS == "windows" {
				// Windows lets only administrators and developer mode
				// create symbolic links; without one there is nothing to
				// refuse.
				t.Skipf("no symlink here: %v", err)
			}
			if _, err := os.Lstat(p); err != nil && platform.UnderWine() {
				// Wine (8.0) makes a link that it then reports missing.
				t.Skipf("Wine's symlink is not seen: %v", err)
			}
		}},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused with a fix", func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "hub.json")
			c.setup(t, p)
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
