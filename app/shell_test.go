package app

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

// openShell opens a shell on a fresh data directory, as the desktop app
// would with FERRY_DATA_DIR set; prepare may write files into it first.
func openShell(t *testing.T, prepare func(dataDir string)) (*shell, *apptest.Recorder, string) {
	t.Helper()
	dataDir := filepath.Join(t.TempDir(), "data")
	t.Setenv(config.EnvDataDir, dataDir)
	t.Setenv(config.EnvConfigDir, "")
	if prepare != nil {
		if err := os.MkdirAll(dataDir, 0o700); err != nil {
			t.Fatal(err)
		}
		prepare(dataDir)
	}
	sh := newShell(slog.New(slog.NewTextHandler(io.Discard, nil)), time.Now())
	rec := &apptest.Recorder{}
	sh.emit = rec
	sh.open(context.Background())
	t.Cleanup(sh.closeCore)
	return sh, rec, dataDir
}

func TestSettingsThroughTheBoundStruct(t *testing.T) {
	sh, rec, dataDir := openShell(t, nil)
	settings := &Settings{sh: sh}

	t.Run("a fresh data directory has the default settings", func(t *testing.T) {
		got, err := settings.Get()
		if err != nil {
			t.Fatalf("Get: %v", err)
		}
		if got.Theme != config.ThemeSystem {
			t.Errorf("theme %q, want system", got.Theme)
		}
	})

	t.Run("a valid theme is saved, in force and announced", func(t *testing.T) {
		cur, _ := settings.Get()
		cur.Theme = config.ThemeDark
		saved, err := settings.Save(cur)
		if err != nil {
			t.Fatalf("Save: %v", err)
		}
		if saved.Theme != config.ThemeDark {
			t.Errorf("Save returned theme %q", saved.Theme)
		}
		b, err := os.ReadFile(filepath.Join(dataDir, "settings.json"))
		if err != nil || !strings.Contains(string(b), `"dark"`) {
			t.Errorf("settings file %q (%v) does not hold the dark theme", b, err)
		}
		if !strings.Contains(rec.Names(), EventSettingsChanged) {
			t.Errorf("events %q lack %s", rec.Names(), EventSettingsChanged)
		}
	})

	t.Run("an invalid theme is a config_invalid envelope and changes nothing", func(t *testing.T) {
		cur, _ := settings.Get()
		cur.Theme = "purple"
		_, err := settings.Save(cur)
		if !errs.Has(err, errs.ConfigInvalid) {
			t.Fatalf("Save(purple): %v, want config_invalid", err)
		}
		env, ok := formatError(err).(*errs.Envelope)
		if !ok || !strings.Contains(env.Message, "purple") {
			t.Fatalf("formatted as %#v, want an envelope naming purple", formatError(err))
		}
		// The hint speaks to someone at a form, not at the file.
		if strings.Contains(env.RetryHint, "line") || !strings.Contains(env.RetryHint, "nothing was saved") {
			t.Errorf("hint %q", env.RetryHint)
		}
		after, _ := settings.Get()
		if after.Theme != config.ThemeDark {
			t.Errorf("theme %q after the rejected save, want dark kept", after.Theme)
		}
	})

	t.Run("status names the data directory and has no problem", func(t *testing.T) {
		st := (&System{sh: sh}).Status()
		if st.DataDir != dataDir || st.SettingsFile != filepath.Join(dataDir, "settings.json") || st.Problem != nil {
			t.Errorf("status %+v", st)
		}
	})
}

func TestMalformedSettingsFile(t *testing.T) {
	const bad = "{\n  \"theme\": \"dark\",\n  oops\n}\n"
	sh, rec, dataDir := openShell(t, func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, "settings.json"), []byte(bad), 0o600); err != nil {
			t.Fatal(err)
		}
	})
	settings, system := &Settings{sh: sh}, &System{sh: sh}

	t.Run("the app still starts and reports config_invalid", func(t *testing.T) {
		st := system.Status()
		if st.Problem == nil || st.Problem.Code != errs.ConfigInvalid {
			t.Fatalf("status problem %+v, want config_invalid", st.Problem)
		}
		if st.SettingsFile != filepath.Join(dataDir, "settings.json") {
			t.Errorf("settings file %q", st.SettingsFile)
		}
		if _, err := settings.Get(); !errs.Has(err, errs.ConfigInvalid) {
			t.Errorf("Get: %v, want config_invalid", err)
		}
		if _, err := settings.Save(config.Defaults()); !errs.Has(err, errs.ConfigInvalid) {
			t.Errorf("Save while broken: %v, want config_invalid (never overwrite silently)", err)
		}
		if len(system.Doctor().Checks) == 0 {
			t.Errorf("doctor has no checks while the settings are broken")
		}
	})

	t.Run("reset keeps the bad file as .bak and reopens with defaults", func(t *testing.T) {
		res, err := settings.Reset()
		if err != nil {
			t.Fatalf("Reset: %v", err)
		}
		kept, err := os.ReadFile(res.Backup)
		if err != nil || string(kept) != bad {
			t.Fatalf("backup %q holds %q (%v), want the malformed file", res.Backup, kept, err)
		}
		if !strings.HasSuffix(res.Backup, ".bak") {
			t.Errorf("backup %q does not end in .bak", res.Backup)
		}
		got, err := settings.Get()
		if err != nil || got.Theme != config.ThemeSystem {
			t.Errorf("after reset Get = %+v, %v; want defaults", got, err)
		}
		if p := system.Status().Problem; p != nil {
			t.Errorf("status still has problem %v", p)
		}
		if !strings.Contains(rec.Names(), EventStatusChanged) {
			t.Errorf("events %q lack %s", rec.Names(), EventStatusChanged)
		}
	})
}

func TestFrontendReadyLogsOnce(t *testing.T) {
	var buf strings.Builder
	var mu sync.Mutex
	w := writerFunc(func(p []byte) (int, error) { mu.Lock(); defer mu.Unlock(); return buf.Write(p) })
	sh := newShell(slog.New(slog.NewTextHandler(w, nil)), time.Now())
	sys := &System{sh: sh}
	sys.FrontendReady()
	sys.FrontendReady()
	if n := strings.Count(buf.String(), `msg="frontend ready"`); n != 1 {
		t.Errorf("logged ready %d times, want once:\n%s", n, buf.String())
	}
}

type writerFunc func([]byte) (int, error)

func (f writerFunc) Write(p []byte) (int, error) { return f(p) }

func TestSaveSitesKeepsTheFileOnABadList(t *testing.T) {
	sh, _, _ := openShell(t, nil)
	settings := &Settings{sh: sh}
	saved, err := settings.SaveSites("[{\"id\": \"chatgpt\", \"name\": \"ChatGPT (work)\"}]")
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.Sites) != 1 {
		t.Fatalf("saved %d sites", len(saved.Sites))
	}
	if _, err := settings.SaveSites("[{\"id\": \"chatgpt\", \"nmae\": 1}]"); !errs.Has(err, errs.ConfigInvalid) {
		t.Fatalf("a bad list: %v", err)
	}
	got, _ := settings.Get()
	if len(got.Sites) != 1 || !strings.Contains(string(got.Sites[0]), "ChatGPT (work)") {
		t.Errorf("a rejected list changed the settings: %s", got.Sites)
	}
	loaded, err := config.Load(sh.status().SettingsFile)
	if err != nil || len(loaded.Sites) != 1 {
		t.Errorf("the file holds %v, %v", loaded.Sites, err)
	}
}
