package autostart

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestAutostartEntry(t *testing.T) {
	cfg := t.TempDir()
	env := map[string]string{"XDG_CONFIG_HOME": cfg, "HOME": "/nonexistent"}
	getenv := func(k string) string { return env[k] }
	file := filepath.Join(cfg, "autostart", autostartName)

	if on, err := autostartState(getenv); err != nil || on {
		t.Fatalf("fresh state: %v %v, want off", on, err)
	}
	exe := "/opt/My Apps/ferry-desktop"
	if err := setAutostart(getenv, exe, true); err != nil {
		t.Fatal(err)
	}
	if on, err := autostartState(getenv); err != nil || !on {
		t.Fatalf("after turning it on: %v %v", on, err)
	}
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "\nExec=\"/opt/My Apps/ferry-desktop\" --hidden\n") {
		t.Errorf("the entry reads\n%s", b)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if out, err := exec.CommandContext(ctx, "desktop-file-validate", file).CombinedOutput(); err != nil || strings.Contains(string(out), "error") {
		t.Errorf("desktop-file-validate: %v\n%s", err, out)
	}
	if err := setAutostart(getenv, exe, false); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Fatalf("the entry is still there after turning it off: %v", err)
	}
	if err := setAutostart(getenv, exe, false); err != nil {
		t.Fatalf("turning it off twice: %v", err)
	}

	// Without XDG_CONFIG_HOME the entry goes under HOME; with neither it
	// cannot be placed, and says so.
	home := t.TempDir()
	env = map[string]string{"HOME": home}
	if err := setAutostart(getenv, "/usr/bin/ferry-desktop", true); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(home, ".config", "autostart", autostartName)); err != nil {
		t.Fatal(err)
	}
	env = map[string]string{}
	if err := setAutostart(getenv, "/usr/bin/ferry-desktop", true); err == nil || !strings.Contains(err.Error(), "HOME") {
		t.Fatalf("with no HOME: %v", err)
	}

	if !StartsHidden([]string{"--hidden"}) || StartsHidden(nil) || StartsHidden([]string{"--demo"}) {
		t.Error("StartsHidden reads the arguments wrong")
	}
}
