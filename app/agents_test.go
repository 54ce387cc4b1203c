package app

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/app/internal/apptest"
)

func TestTheCLIBinaryForTheMCPSnippets(t *testing.T) {
	notFound := func(string) (string, error) { return "", errors.New("not in PATH") }
	touch := func(t *testing.T, p string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("#!/bin/sh\n"), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("the ferry beside the app wins over the one in PATH", func(t *testing.T) {
		dir := t.TempDir()
		touch(t, filepath.Join(dir, "ferry-desktop"))
		touch(t, filepath.Join(dir, "ferry"))
		got, found := cliBinary(filepath.Join(dir, "ferry-desktop"), func(string) (string, error) { return "/usr/bin/ferry", nil })
		if !found || got != filepath.Join(dir, "ferry") {
			t.Errorf("got %s %v, want %s", got, found, filepath.Join(dir, "ferry"))
		}
	})
	t.Run("a symlinked app finds the ferry beside its real file", func(t *testing.T) {
		dir, links := t.TempDir(), t.TempDir()
		touch(t, filepath.Join(dir, "ferry-desktop"))
		touch(t, filepath.Join(dir, "ferry"))
		if err := os.Symlink(filepath.Join(dir, "ferry-desktop"), filepath.Join(links, "ferry-desktop")); err != nil {
			t.Fatal(err)
		}
		real, _ := filepath.EvalSymlinks(filepath.Join(dir, "ferry"))
		if got, found := cliBinary(filepath.Join(links, "ferry-desktop"), notFound); !found || got != real {
			t.Errorf("got %s %v, want %s", got, found, real)
		}
	})
	t.Run("without one beside the app, the one in PATH", func(t *testing.T) {
		dir, bin := t.TempDir(), t.TempDir()
		touch(t, filepath.Join(bin, "ferry"))
		real, _ := filepath.EvalSymlinks(filepath.Join(bin, "ferry"))
		got, found := cliBinary(filepath.Join(dir, "ferry-desktop"), func(string) (string, error) { return filepath.Join(bin, "ferry"), nil })
		if !found || got != real {
			t.Errorf("got %s %v, want %s", got, found, real)
		}
	})
	t.Run("with none, the path beside the app, marked not found", func(t *testing.T) {
		dir := t.TempDir()
		got, found := cliBinary(filepath.Join(dir, "ferry-desktop"), notFound)
		if found || !strings.HasSuffix(got, "ferry") || filepath.Dir(got) != dir {
			t.Errorf("got %s %v, want %s/ferry not found", got, found, dir)
		}
	})
}

func TestMCPConfigsGiveEveryAgentASnippet(t *testing.T) {
	g := &Gateway{sh: newShell(apptest.QuietLog(), time.Now())}
	list, err := g.MCPConfigs()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range list {
		names = append(names, c.Name)
		if !strings.Contains(c.Snippet, c.Binary) && c.Format == "json" {
			t.Errorf("%s snippet does not name %s:\n%s", c.Name, c.Binary, c.Snippet)
		}
	}
	if strings.Join(names, ",") != "claude,codex,cursor,gemini" {
		t.Errorf("agents = %v", names)
	}
}
