//go:build unix

package artifact

import (
	"bytes"
	"context"
	"crypto/rand"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// saveChild is the test binary saving, into dir, the zip written to its
// stdin (see TestMain).
type saveChild struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   bytes.Buffer
	errb  bytes.Buffer
}

func startSaveChild(t *testing.T, ctx context.Context, dir string) *saveChild {
	t.Helper()
	c := &saveChild{cmd: exec.CommandContext(ctx, os.Args[0], "-test.run=^$")}
	c.cmd.Env = append(os.Environ(), saveChildEnv+"="+dir)
	c.cmd.Stdout, c.cmd.Stderr = &c.out, &c.errb
	var err error
	if c.stdin, err = c.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if c.cmd.ProcessState == nil {
			_ = c.cmd.Process.Kill()
			_ = c.cmd.Wait()
		}
	})
	return c
}

// partFiles are the temporary files of saves in dir, with their sizes.
func partFiles(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, ".ferry-*.zip.part"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int64{}
	for _, p := range paths {
		if st, err := os.Stat(p); err == nil {
			out[p] = st.Size()
		}
	}
	return out
}

// waitPart waits until a temporary file not in known holds at least n
// bytes, and returns its path.
func waitPart(t *testing.T, ctx context.Context, dir string, known map[string]int64, n int64) string {
	t.Helper()
	for {
		for p, size := range partFiles(t, dir) {
			if _, old := known[p]; !old && size >= n {
				return p
			}
		}
		if ctx.Err() != nil {
			t.Fatalf("no new temporary file of %d bytes appeared in %s", n, dir)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func randomZip(t *testing.T, name string, n int) []byte {
	t.Helper()
	data := make([]byte, n)
	if _, err := rand.Read(data); err != nil {
		t.Fatal(err)
	}
	return goZip(t, goEntry{name: name, data: string(data), stored: true})
}

// TestSaveSweepsThePartFilesOfKilledSavesOnly: a save SIGKILLed in the
// middle of the write leaves its temporary file behind (nothing can run in
// a killed process); the next Save into the directory removes it, while the
// temporary file of a save still writing in another process is untouched
// and that save finishes with its zip and sidecar.
func TestSaveSweepsThePartFilesOfKilledSavesOnly(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 45*time.Second)
	defer cancel()
	dir := t.TempDir()
	const half = 128 << 10

	// A save killed mid-write.
	deadZip := randomZip(t, "dead.bin", 2*half)
	dead := startSaveChild(t, ctx, dir)
	if _, err := dead.stdin.Write(deadZip[:half]); err != nil {
		t.Fatal(err)
	}
	deadPart := waitPart(t, ctx, dir, nil, half)
	if err := dead.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	err := dead.cmd.Wait()
	if ws, ok := dead.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the writer was not killed: %v\n%s", err, dead.errb.String())
	}
	if _, err := os.Stat(deadPart); err != nil {
		t.Fatalf("the killed save left no temporary file to sweep: %v", err)
	}

	// A save still writing, in another process.
	liveZip := randomZip(t, "live.bin", 2*half)
	live := startSaveChild(t, ctx, dir)
	if _, err := live.stdin.Write(liveZip[:half]); err != nil {
		t.Fatal(err)
	}
	livePart := waitPart(t, ctx, dir, map[string]int64{deadPart: 0}, half)

	good := randomZip(t, "good.bin", 4096)
	s, err := Save(ctx, dir, "good.zip", bytes.NewReader(good), Provenance{Site: "chatgpt"})
	if err != nil {
		t.Fatalf("Save: %v", err)
	}
	t.Run("the next save removes the temporary file of the killed one", func(t *testing.T) {
		if _, err := os.Stat(deadPart); !os.IsNotExist(err) {
			t.Fatalf("%s is still there after the next Save (stat: %v)", deadPart, err)
		}
		if b, err := os.ReadFile(s.Path); err != nil || !bytes.Equal(b, good) {
			t.Fatalf("the next save's own zip at %s: %v", s.Path, err)
		}
	})
	t.Run("the temporary file of a live save is untouched", func(t *testing.T) {
		st, err := os.Stat(livePart)
		if err != nil || st.Size() < half {
			t.Fatalf("the live writer's %s after the sweep: %v", livePart, err)
		}
	})
	t.Run("the live save finishes with its zip and sidecar", func(t *testing.T) {
		if _, err := live.stdin.Write(liveZip[half:]); err != nil {
			t.Fatal(err)
		}
		live.stdin.Close()
		if err := live.cmd.Wait(); err != nil {
			t.Fatalf("the live save failed: %v\n%s", err, live.errb.String())
		}
		path := strings.TrimSpace(live.out.String())
		if b, err := os.ReadFile(path); err != nil || !bytes.Equal(b, liveZip) {
			t.Fatalf("the live save's zip %q: %v", path, err)
		}
		if _, err := os.Stat(path + SidecarSuffix); err != nil {
			t.Fatalf("the live save's sidecar: %v", err)
		}
		if left := partFiles(t, dir); len(left) != 0 {
			t.Fatalf("temporary files left: %v", left)
		}
	})
}

// TestSweepDeadTempsKeepsLockedFiles: a sweep removes an unlocked
// temporary file of either kind (zip part, sidecar temp) and keeps one whose
// writer in this process holds the lock, and other files alike.
func TestSweepDeadTempsKeepsLockedFiles(t *testing.T) {
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, QuarantineDir), 0o755); err != nil {
		t.Fatal(err)
	}
	dead := []string{filepath.Join(dir, ".ferry-123.zip.part"), filepath.Join(dir, ".ferry-456.tmp"),
		filepath.Join(dir, QuarantineDir, ".ferry-789.tmp")}
	keep := []string{filepath.Join(dir, "project.zip"), filepath.Join(dir, ".ferry-notes.zip.123.part")}
	for _, p := range append(append([]string{}, dead...), keep...) {
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	f, release, err := createLockedTemp(dir, ".ferry-*.zip.part")
	if err != nil {
		t.Fatal(err)
	}
	defer release()
	f.Close() // the lock outlives the data descriptor
	keep = append(keep, f.Name())
	removed, err := SweepDeadTemps(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != len(dead) {
		t.Errorf("removed %v, want %v", removed, dead)
	}
	for _, p := range dead {
		if _, err := os.Stat(p); !os.IsNotExist(err) {
			t.Errorf("%s survived the sweep", p)
		}
	}
	for _, p := range keep {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s was removed: %v", p, err)
		}
	}
}
