package config_test

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/ferrydesk/ferry/backend/config"
	"github.com/ferrydesk/ferry/backend/errs"
)

func TestResolvePathsPrecedence(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the defaults in this table are the Linux ones")
	}
	home := t.TempDir()
	flagDir := filepath.Join(home, "flag")
	envDir := filepath.Join(home, "env")
	confDir := filepath.Join(home, "conf")
	xdgData := filepath.Join(home, "xdg-data")
	xdgConf := filepath.Join(home, "xdg-conf")
	cases := []struct {
		name                     string
		flag                     string
		env                      map[string]string
		wantData, wantConfig     string
		wantDataSrc, wantConfSrc string
	}{
		{name: "with nothing set the XDG defaults under HOME are used",
			wantData: filepath.Join(home, ".local/share/ferry"), wantConfig: filepath.Join(home, ".config/ferry"),
			wantDataSrc: config.SourceDefault, wantConfSrc: config.SourceDefault},
		{name: "XDG_DATA_HOME and XDG_CONFIG_HOME move the defaults",
			env:      map[string]string{"XDG_DATA_HOME": xdgData, "XDG_CONFIG_HOME": xdgConf},
			wantData: filepath.Join(xdgData, "ferry"), wantConfig: filepath.Join(xdgConf, "ferry"),
			wantDataSrc: config.SourceDefault, wantConfSrc: config.SourceDefault},
		{name: "a relative XDG_DATA_HOME is ignored as the XDG spec says",
			env:      map[string]string{"XDG_DATA_HOME": "rel/data"},
			wantData: filepath.Join(home, ".local/share/ferry"), wantConfig: filepath.Join(home, ".config/ferry"),
			wantDataSrc: config.SourceDefault, wantConfSrc: config.SourceDefault},
		{name: "FERRY_DATA_DIR beats XDG and also holds the settings",
			env:      map[string]string{"FERRY_DATA_DIR": envDir, "XDG_DATA_HOME": xdgData},
			wantData: envDir, wantConfig: envDir,
			wantDataSrc: config.SourceEnvData, wantConfSrc: config.SourceEnvData},
		{name: "--data-dir beats FERRY_DATA_DIR and also holds the settings",
			flag: flagDir, env: map[string]string{"FERRY_DATA_DIR": envDir},
			wantData: flagDir, wantConfig: flagDir,
			wantDataSrc: config.SourceFlag, wantConfSrc: config.SourceFlag},
		{name: "FERRY_CONFIG_DIR beats the portable data dir for settings",
			flag: flagDir, env: map[string]string{"FERRY_CONFIG_DIR": confDir},
			wantData: flagDir, wantConfig: confDir,
			wantDataSrc: config.SourceFlag, wantConfSrc: config.SourceEnvConf},
		{name: "FERRY_CONFIG_DIR alone moves only the settings",
			env:      map[string]string{"FERRY_CONFIG_DIR": confDir},
			wantData: filepath.Join(home, ".local/share/ferry"), wantConfig: confDir,
			wantDataSrc: config.SourceDefault, wantConfSrc: config.SourceEnvConf},
		{name: "a relative --data-dir is made absolute against the working directory",
			flag:     "rel/dir",
			wantData: filepath.Join(mustGetwd(t), "rel/dir"), wantConfig: filepath.Join(mustGetwd(t), "rel/dir"),
			wantDataSrc: config.SourceFlag, wantConfSrc: config.SourceFlag},
		{name: "a leading ~/ in FERRY_DATA_DIR is the home directory",
			env:      map[string]string{"FERRY_DATA_DIR": "~/portable"},
			wantData: filepath.Join(home, "portable"), wantConfig: filepath.Join(home, "portable"),
			wantDataSrc: config.SourceEnvData, wantConfSrc: config.SourceEnvData},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			for _, k := range []string{"FERRY_DATA_DIR", "FERRY_CONFIG_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME"} {
				t.Setenv(k, "")
			}
			t.Setenv("HOME", home)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			p, err := config.ResolvePaths(c.flag)
			if err != nil {
				t.Fatal(err)
			}
			if p.DataDir != c.wantData || p.ConfigDir != c.wantConfig {
				t.Fatalf("data %s, config %s\nwant data %s, config %s", p.DataDir, p.ConfigDir, c.wantData, c.wantConfig)
			}
			if p.DataSource != c.wantDataSrc || p.ConfigSource != c.wantConfSrc {
				t.Fatalf("sources %q, %q; want %q, %q", p.DataSource, p.ConfigSource, c.wantDataSrc, c.wantConfSrc)
			}
			if p.SettingsFile() != filepath.Join(c.wantConfig, "settings.json") ||
				p.StoreDir() != filepath.Join(c.wantData, "db") ||
				p.ProfileDir() != filepath.Join(c.wantData, "browser-profile") ||
				p.ArtifactsDir() != filepath.Join(c.wantData, "artifacts") {
				t.Fatalf("derived paths wrong: %+v", p)
			}
			if _, err := os.Stat(p.DataDir); err == nil {
				t.Fatalf("ResolvePaths created %s", p.DataDir)
			}
		})
	}
}

func mustGetwd(t *testing.T) string {
	wd, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	return wd
}

func TestResolvePathsRefusesUnusableValues(t *testing.T) {
	file := filepath.Join(t.TempDir(), "a-file")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, flag string
		env        map[string]string
		source     string
	}{
		{name: "a --data-dir that is a regular file", flag: file, source: "--data-dir"},
		{name: "a FERRY_DATA_DIR that is a regular file", env: map[string]string{"FERRY_DATA_DIR": file}, source: "FERRY_DATA_DIR"},
		{name: "a FERRY_CONFIG_DIR that is a regular file", env: map[string]string{"FERRY_CONFIG_DIR": file}, source: "FERRY_CONFIG_DIR"},
		{name: "a --data-dir with a NUL byte", flag: "a\x00b", source: "--data-dir"},
		{name: "a blank --data-dir", flag: "   ", source: "--data-dir"},
	}
	for _, c := range cases {
		t.Run(c.name+" is bad input naming its source", func(t *testing.T) {
			t.Setenv("FERRY_DATA_DIR", "")
			t.Setenv("FERRY_CONFIG_DIR", "")
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			_, err := config.ResolvePaths(c.flag)
			e := errs.From(err)
			if err == nil || e.Code != errs.BadInput || e.Evidence["source"] != c.source {
				t.Fatalf("got %v (%v)", err, e)
			}
		})
	}
	t.Run("no HOME and no override is bad input that names the way out", func(t *testing.T) {
		if runtime.GOOS != "linux" {
			t.Skip("HOME is the Linux home variable")
		}
		t.Setenv("FERRY_DATA_DIR", "")
		t.Setenv("XDG_DATA_HOME", "")
		t.Setenv("HOME", "")
		_, err := config.ResolvePaths("")
		if !errs.Has(err, errs.BadInput) {
			t.Fatalf("got %v", err)
		}
	})
}

func TestEnsureDataDir(t *testing.T) {
	t.Run("it creates the directory owner-only and leaves no probe behind", func(t *testing.T) {
		p := config.Paths{DataDir: filepath.Join(t.TempDir(), "a", "ferry")}
		if err := p.EnsureDataDir(); err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(p.DataDir)
		if err != nil || !fi.IsDir() {
			t.Fatalf("stat: %v, %v", fi, err)
		}
		assertOwnerOnly(t, p.DataDir, 0o700)
		entries, _ := os.ReadDir(p.DataDir)
		if len(entries) != 0 {
			t.Fatalf("left %d files behind", len(entries))
		}
	})
	t.Run("a directory that cannot be created is data_dir_unwritable naming it", func(t *testing.T) {
		file := filepath.Join(t.TempDir(), "file")
		os.WriteFile(file, []byte("x"), 0o600)
		p := config.Paths{DataDir: filepath.Join(file, "ferry")}
		e := errs.From(p.EnsureDataDir())
		if e == nil || e.Code != errs.DataDirUnwritable || e.Evidence["dir"] != p.DataDir {
			t.Fatalf("got %v", e)
		}
	})
	t.Run("a read-only directory is data_dir_unwritable", func(t *testing.T) {
		dir := unwritableDir(t)
		e := errs.From(config.Paths{DataDir: dir}.EnsureDataDir())
		if e == nil || e.Code != errs.DataDirUnwritable || e.Evidence["dir"] != dir {
			t.Fatalf("got %v", e)
		}
	})
}
