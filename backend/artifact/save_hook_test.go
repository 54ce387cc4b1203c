package artifact

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestSaveCallsBeforeLinkBeforeTheZipAppears: the hook gets the verified
// zip's sha256 and intended name while the final name does not exist yet,
// and a hook error stops the save with nothing left in the directory.
func TestSaveCallsBeforeLinkBeforeTheZipAppears(t *testing.T) {
	zip := goZip(t, goEntry{name: "a.txt", data: "hello"})
	sum := sha256.Sum256(zip)
	t.Run("the hook sees the sha256 before the zip has its name", func(t *testing.T) {
		dir := t.TempDir()
		var seen Provenance
		existed := true
		_, err := Save(context.Background(), dir, "/mnt/data/p.zip", bytes.NewReader(zip), Provenance{Site: "chatgpt"},
			WithBeforeLink(func(p Provenance) error {
				seen = p
				_, serr := os.Stat(filepath.Join(dir, "p.zip"))
				existed = serr == nil
				return nil
			}))
		if err != nil {
			t.Fatal(err)
		}
		if existed || seen.SHA256 != hex.EncodeToString(sum[:]) || seen.FileName != "p.zip" || seen.Size != int64(len(zip)) {
			t.Fatalf("hook saw %+v with the zip already there: %v", seen, existed)
		}
	})
	t.Run("a hook error stops the save and leaves nothing", func(t *testing.T) {
		dir := t.TempDir()
		boom := errors.New("journal down")
		_, err := Save(context.Background(), dir, "p.zip", bytes.NewReader(zip), Provenance{Site: "chatgpt"},
			WithBeforeLink(func(Provenance) error { return boom }))
		if !errors.Is(err, boom) {
			t.Fatalf("Save: %v, want the hook's error", err)
		}
		if left := listDir(t, dir); len(left) != 0 {
			t.Fatalf("the directory holds %v", left)
		}
	})
}
