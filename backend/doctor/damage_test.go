package doctor

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/hub/client"
	"github.com/ferrydesk/ferry/backend/store"
)

// storeWithSessions writes n records into the store of p and closes it, so
// that badger writes them as table 000001.sst; with backup it also leaves a
// backup in p's backups directory.
func storeWithSessions(t *testing.T, p config.Paths, n int, backup bool) {
	t.Helper()
	ctx := context.Background()
	s, err := store.Open(ctx, p.StoreDir(), store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < n; i += 500 {
		err := s.Update(func(tx *store.Tx) error {
			for j := i; j < min(n, i+500); j++ {
				val := fmt.Appendf(nil, `{"id":"s%05d","prompt":%q}`, j, strings.Repeat("a question about the harbour ", 12))
				if err := tx.Put(store.SessionKey(fmt.Sprintf("s%05d", j)), val); err != nil {
					return err
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if backup {
		if _, err := s.Backup(ctx, p.BackupsDir()); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestStoreCheckNamesTheDamage(t *testing.T) {
	ctx := context.Background()
	t.Run("a sound store reports its checksums verified and its newest backup", func(t *testing.T) {
		p := paths(t)
		storeWithSessions(t, p, 1500, true)
		c := Store(ctx, p, client.FindOwner)
		if c.Status != OK || !strings.Contains(c.Detail, "passed its checksum") || strings.Contains(c.Detail, "of its 0 table") ||
			!strings.Contains(c.Detail, "newest backup") {
			t.Fatalf("sound store: %+v", c)
		}
	})
	t.Run("1 KB overwritten inside a table fails naming the file and the backup to restore", func(t *testing.T) {
		p := paths(t)
		storeWithSessions(t, p, 1500, true)
		table := filepath.Join(p.StoreDir(), "000001.sst")
		f, err := os.OpenFile(table, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		st, _ := f.Stat()
		if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, 1<<10), st.Size()/2); err != nil {
			t.Fatal(err)
		}
		f.Close()
		c := Store(ctx, p, client.FindOwner)
		if c.Status != Fail || !c.Required || !strings.Contains(c.Detail, "000001.sst") || !strings.Contains(c.Detail, "damaged") {
			t.Fatalf("damaged table: %+v", c)
		}
		if !strings.Contains(c.Fix, "ferry sessions restore") || !strings.Contains(c.Fix, "history-") {
			t.Fatalf("fix does not name the restore and its backup: %q", c.Fix)
		}
	})
	t.Run("a missing MANIFEST fails, and the tables are still there after the check", func(t *testing.T) {
		p := paths(t)
		storeWithSessions(t, p, 1500, false)
		if err := os.Remove(filepath.Join(p.StoreDir(), "MANIFEST")); err != nil {
			t.Fatal(err)
		}
		c := Store(ctx, p, client.FindOwner)
		if c.Status != Fail || !strings.Contains(c.Detail, "MANIFEST") {
			t.Fatalf("missing manifest: %+v", c)
		}
		if !strings.Contains(c.Fix, "no backup") || !strings.Contains(c.Fix, "move") {
			t.Fatalf("fix without a backup: %q", c.Fix)
		}
		if _, err := os.Stat(filepath.Join(p.StoreDir(), "000001.sst")); err != nil {
			t.Fatalf("the check lost the table: %v", err)
		}
	})
}
