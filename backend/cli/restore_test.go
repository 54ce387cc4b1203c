package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/store"
)

// damageLargestTable overwrites 1 KB in the middle of the largest table of
// the store in dataDir and returns its name.
func damageLargestTable(t *testing.T, dataDir string) string {
	t.Helper()
	tables, _ := filepath.Glob(filepath.Join(dataDir, "db", "*.sst"))
	var largest string
	var size int64
	for _, f := range tables {
		if st, err := os.Stat(f); err == nil && st.Size() > size {
			largest, size = f, st.Size()
		}
	}
	if largest == "" || size < 32<<10 {
		t.Fatalf("no table of some size in %v", tables)
	}
	f, err := os.OpenFile(largest, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteAt(bytes.Repeat([]byte{0x5a}, 1<<10), size/2); err != nil {
		t.Fatal(err)
	}
	return filepath.Base(largest)
}

func backupsIn(t *testing.T, dataDir string) []store.BackupFile {
	t.Helper()
	have, err := store.Backups(filepath.Join(dataDir, "backups"))
	if err != nil {
		t.Fatal(err)
	}
	return have
}

func TestADamagedHistoryIsReportedAndRestored(t *testing.T) {
	t.Parallel()
	const n = 300
	dd := t.TempDir()
	base := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	var ss []job.Session
	for i := range n {
		ss = append(ss, job.Session{ID: fmt.Sprintf("run-%04d", i), Site: "chatgpt", State: job.StateDone, Created: base.Add(time.Duration(i) * time.Minute),
			Prompt: fmt.Sprintf("question %d about the tides and the ferry timetable of the island", i), Answer: strings.Repeat("an answer of some length ", 8)})
	}
	seedSessions(t, dd, ss...)
	d := "--data-dir=" + dd
	// A backup from a day ago: the owner's open then takes none, so the one
	// after its stop is the clean shutdown's.
	s, err := store.Open(context.Background(), filepath.Join(dd, "db"), store.WithRole("test"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Backup(context.Background(), filepath.Join(dd, "backups")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}

	t.Run("restore is refused while ferry serve owns the data directory, and a clean stop writes one backup", func(t *testing.T) {
		srv := startServe(t, dd)
		r := ferry(t, nil, "sessions", "restore", d)
		if r.code != exitOf(errs.StoreBusy) || !strings.Contains(r.stderr, "store_busy") || !strings.Contains(r.stderr, "stop `ferry serve`") {
			t.Fatalf("restore under a running owner: exit %d\n%s", r.code, r.stderr)
		}
		if m, _ := filepath.Glob(filepath.Join(dd, "db.*")); len(m) != 0 {
			t.Fatalf("a refused restore moved %v", m)
		}
		if got := len(backupsIn(t, dd)); got != 1 {
			t.Fatalf("%d backups while serve runs, want the 1 from before", got)
		}
		srv.stop(t)
		if got := len(backupsIn(t, dd)); got != 2 {
			t.Fatalf("%d backups after a clean stop of ferry serve, want 2", got)
		}
	})
	t.Run("a damaged table makes sessions list fail with store_corrupt, never an empty list", func(t *testing.T) {
		table := damageLargestTable(t, dd)
		r := ferry(t, nil, "sessions", "list", d)
		if r.code == 0 || r.code != exitOf(errs.StoreCorrupt) || strings.Contains(r.stdout, "no sessions match") {
			t.Fatalf("sessions list on a damaged store: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if !strings.Contains(r.stderr, "store_corrupt") || !strings.Contains(r.stderr, table) || !strings.Contains(r.stderr, "ferry sessions restore") {
			t.Fatalf("the error does not name the damage and the way out:\n%s", r.stderr)
		}
		doc := ferry(t, nil, "doctor", d)
		if !strings.Contains(doc.stdout, table) || strings.Contains(doc.stdout, "[ok] store") || doc.code == 0 {
			t.Fatalf("doctor on a damaged store (exit %d):\n%s", doc.code, doc.stdout)
		}
	})
	t.Run("restore with no file brings the newest backup back and keeps the damaged store", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "restore", "--json", d)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		var out struct {
			From, DamagedDir string
			Sessions         int
		}
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("%v: %s", err, r.stdout)
		}
		if have := backupsIn(t, dd); out.From != have[0].Path || out.Sessions != n {
			t.Fatalf("restored %+v, want %d sessions from %s", out, n, have[0].Path)
		}
		if _, err := os.Stat(out.DamagedDir); err != nil || !strings.HasPrefix(filepath.Base(out.DamagedDir), "db.damaged-") {
			t.Fatalf("damaged store not kept: %q %v", out.DamagedDir, err)
		}
		list := ferry(t, nil, "sessions", "list", "--json", "--limit", "1000", d)
		var rows struct {
			Sessions []struct{ ID string }
			Total    int
		}
		if err := json.Unmarshal([]byte(list.stdout), &rows); err != nil || len(rows.Sessions) != n || rows.Total != n {
			t.Fatalf("after restore sessions list gives %d rows of %d (%v): %s", len(rows.Sessions), rows.Total, err, list.stderr)
		}
	})
	t.Run("restore FILE brings that backup back and says where the damaged store went", func(t *testing.T) {
		damageLargestTable(t, dd)
		have := backupsIn(t, dd)
		oldest := have[len(have)-1].Path
		r := ferry(t, nil, "sessions", "restore", oldest, d)
		if r.code != 0 {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if !strings.Contains(r.stdout, fmt.Sprintf("restored %d sessions", n)) || !strings.Contains(r.stdout, oldest) || !strings.Contains(r.stdout, "db.damaged-") {
			t.Fatalf("restore output:\n%s", r.stdout)
		}
		if m, _ := filepath.Glob(filepath.Join(dd, "db.damaged-*")); len(m) != 2 {
			t.Fatalf("want both damaged stores kept, have %v", m)
		}
		if list := ferry(t, nil, "sessions", "show", "run-0007", d); list.code != 0 || !strings.Contains(list.stdout, "question 7 about") {
			t.Fatalf("session run-0007 after restore: exit %d %s", list.code, list.stderr)
		}
	})
	t.Run("restore of a missing file is bad input and moves nothing", func(t *testing.T) {
		r := ferry(t, nil, "sessions", "restore", filepath.Join(dd, "no-such.backup"), d)
		if r.code != exitOf(errs.BadInput) {
			t.Fatalf("exit %d: %s", r.code, r.stderr)
		}
		if m, _ := filepath.Glob(filepath.Join(dd, "db.damaged-*")); len(m) != 2 {
			t.Fatalf("a refused restore moved the store: %v", m)
		}
	})
}
