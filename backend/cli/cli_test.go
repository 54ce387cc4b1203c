package cli

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/store"
)

// binary is the ferry CLI built once for this test binary.
var binary string

func TestMain(m *testing.M) {
	if dir := os.Getenv("FERRY_TEST_HOLD_STORE"); dir != "" {
		os.Exit(holdStore(dir))
	}
	tmp, err := os.MkdirTemp("", "ferry-cli-test")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	binary = filepath.Join(tmp, "ferry")
	build := exec.Command("go", "build", "-o", binary, "github.com/ferrydesk/ferry/backend/cmd/ferry")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "build ferry: %v\n%s", err, out)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(tmp)
	os.Exit(code)
}

// holdStore is the child process of the busy-store test: it opens the store
// as "ferry serve" would, says so, and holds it until its stdin closes.
func holdStore(dir string) int {
	s, err := store.Open(context.Background(), dir, store.WithRole("serve"), store.WithProgram("ferry serve"))
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("holding")
	_, _ = bufio.NewReader(os.Stdin).ReadString('\n')
	s.Close()
	return 0
}

type result struct {
	stdout, stderr string
	code           int
	took           time.Duration
}

func ferry(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return ferryIn(t, nil, env, args...)
}

// ferryIn runs ferry as ferry does, its standard input stdin (nil: none).
func ferryIn(t *testing.T, stdin io.Reader, env []string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, binary, args...)
	cmd.Env = append(hermeticEnv(t), env...)
	var out, errb bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdin, &out, &errb
	// A process that ended while something it started still holds its
	// output open would keep Run waiting on the pipes for as long as that
	// lives (a shell pipeline would hang the same way): say so instead.
	cmd.WaitDelay = 10 * time.Second
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), took: time.Since(start)}
	if errors.Is(err, exec.ErrWaitDelay) {
		t.Fatalf("ferry %v ended, but a process it started kept its output open for 10 s more", args)
	}
	if ee, ok := err.(*exec.ExitError); ok {
		r.code = ee.ExitCode()
	} else if err != nil {
		t.Fatalf("run ferry %v: %v", args, err)
	}
	return r
}

// hermeticEnv points every directory Ferry could use at the test's temp dir,
// so no test touches the user's real data or config.
func hermeticEnv(t testing.TB) []string {
	home := t.TempDir()
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "FERRY_") && !strings.HasPrefix(kv, "XDG_") && !strings.HasPrefix(kv, "HOME=") {
			env = append(env, kv)
		}
	}
	return append(env, "HOME="+home, "XDG_CONFIG_HOME="+filepath.Join(home, "config"), "XDG_DATA_HOME="+filepath.Join(home, "data"))
}

func TestVersionAndHelp(t *testing.T) {
	t.Parallel()
	t.Run("version names ferry and its go version", func(t *testing.T) {
		r := ferry(t, nil, "version")
		if r.code != 0 || !strings.HasPrefix(r.stdout, "ferry ") || !strings.Contains(r.stdout, "go1.") {
			t.Fatalf("version: %+v", r)
		}
	})
	t.Run("version --json is one object", func(t *testing.T) {
		r := ferry(t, nil, "version", "--json")
		var v map[string]string
		if err := json.Unmarshal([]byte(r.stdout), &v); err != nil || v["version"] == "" {
			t.Fatalf("version --json: %v %q", err, r.stdout)
		}
	})
	t.Run("help lists every command and the exit codes", func(t *testing.T) {
		r := ferry(t, nil, "help")
		for _, want := range []string{"doctor", "version", "help", "settings", "--data-dir", "Exit codes"} {
			if !strings.Contains(r.stdout, want) {
				t.Errorf("help lacks %q:\n%s", want, r.stdout)
			}
		}
	})
	t.Run("help of a command shows its flags", func(t *testing.T) {
		r := ferry(t, nil, "help", "doctor")
		if r.code != 0 || !strings.Contains(r.stdout, "Usage: ferry doctor") || !strings.Contains(r.stdout, "-json") {
			t.Fatalf("help doctor: %+v", r)
		}
		if h := ferry(t, nil, "doctor", "-h"); h.stdout != r.stdout {
			t.Fatalf("doctor -h differs from help doctor:\n%s\n---\n%s", h.stdout, r.stdout)
		}
	})
	t.Run("a mistyped command exits 2 and suggests the right one", func(t *testing.T) {
		r := ferry(t, nil, "doctr")
		if r.code != 2 || !strings.Contains(r.stderr, "unknown_command") || !strings.Contains(r.stderr, "ferry doctor") {
			t.Fatalf("doctr: %+v", r)
		}
	})
	t.Run("an unknown flag exits 2 with a JSON error when --json is asked", func(t *testing.T) {
		r := ferry(t, nil, "doctor", "--json", "--frobnicate")
		var v struct{ Error map[string]any }
		if r.code != 2 || json.Unmarshal([]byte(r.stdout), &v) != nil || v.Error["code"] != "bad_input" {
			t.Fatalf("bad flag: %+v", r)
		}
	})
}

type doctorReport struct {
	OK     bool
	Checks []struct {
		ID, Status, Detail, Fix string
		Required                bool
	}
}

func (d doctorReport) check(t *testing.T, id string) (status, detail string) {
	t.Helper()
	for _, c := range d.Checks {
		if c.ID == id {
			return c.Status, c.Detail
		}
	}
	t.Fatalf("no %q check in %+v", id, d)
	return "", ""
}

func TestDoctor(t *testing.T) {
	t.Parallel()
	t.Run("--json prints one object with every check", func(t *testing.T) {
		dir := t.TempDir()
		r := ferry(t, nil, "--data-dir", dir, "doctor", "--json")
		var rep doctorReport
		dec := json.NewDecoder(strings.NewReader(r.stdout))
		if err := dec.Decode(&rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
		}
		if dec.More() {
			t.Fatalf("doctor --json printed more than one value:\n%s", r.stdout)
		}
		for _, id := range []string{"browser", "display", "webkit", "datadir", "settings", "store"} {
			rep.check(t, id)
		}
		if st, _ := rep.check(t, "store"); st != "ok" {
			t.Fatalf("a fresh data dir's store should open: %+v", rep)
		}
		if (r.code == 0) != rep.OK {
			t.Fatalf("exit %d does not match ok=%v", r.code, rep.OK)
		}
	})
	t.Run("FERRY_DATA_DIR is used when no flag is given", func(t *testing.T) {
		dir := t.TempDir()
		r := ferry(t, []string{"FERRY_DATA_DIR=" + dir}, "doctor", "--json")
		if !strings.Contains(r.stdout, dir) {
			t.Fatalf("doctor did not use FERRY_DATA_DIR %s:\n%s", dir, r.stdout)
		}
		if _, err := os.Stat(filepath.Join(dir, "db")); err != nil {
			t.Fatalf("store not created in FERRY_DATA_DIR: %v", err)
		}
	})
	t.Run("a store held by another process is reported at once with its holder", func(t *testing.T) {
		dir := t.TempDir()
		child := exec.Command(os.Args[0], "-test.run=^$")
		child.Env = append(os.Environ(), "FERRY_TEST_HOLD_STORE="+filepath.Join(dir, "db"))
		stdin, _ := child.StdinPipe()
		stdout, _ := child.StdoutPipe()
		if err := child.Start(); err != nil {
			t.Fatal(err)
		}
		defer func() { stdin.Close(); child.Wait() }()
		line, _ := bufio.NewReader(stdout).ReadString('\n')
		if strings.TrimSpace(line) != "holding" {
			t.Fatalf("holder did not start: %q", line)
		}
		r := ferry(t, nil, "--data-dir", dir, "doctor", "--json")
		var rep doctorReport
		if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
			t.Fatalf("doctor --json: %v\n%s", err, r.stdout)
		}
		st, detail := rep.check(t, "store")
		if st != "fail" || rep.OK || r.code != 3 {
			t.Fatalf("busy store not reported as a failure (exit %d): %+v", r.code, rep)
		}
		if !strings.Contains(detail, fmt.Sprint(child.Process.Pid)) || !strings.Contains(detail, "ferry serve") {
			t.Fatalf("busy store detail does not name the holder (pid %d): %q", child.Process.Pid, detail)
		}
		// The child holds the store until its stdin closes, after this
		// check: a doctor that waited for the lock would never have
		// returned the report above (ferry's hang bound would have killed
		// it), so no clock is needed to show that it did not wait.
		text := ferry(t, nil, "--data-dir", dir, "doctor")
		if !strings.Contains(text.stdout, "FAIL") || !strings.Contains(text.stdout, "in use") {
			t.Fatalf("human doctor output does not show the busy store:\n%s", text.stdout)
		}
	})
	t.Run("a malformed settings file fails the settings check naming the line", func(t *testing.T) {
		dir := t.TempDir()
		os.WriteFile(filepath.Join(dir, "settings.json"), []byte("{\n  \"theme\": \"dark\",\n  oops\n}\n"), 0o600)
		r := ferry(t, nil, "doctor", "--data-dir", dir, "--json")
		var rep doctorReport
		json.Unmarshal([]byte(r.stdout), &rep)
		st, detail := rep.check(t, "settings")
		if st != "fail" || !strings.Contains(detail, "line 3") || !strings.Contains(detail, "settings.json") {
			t.Fatalf("settings check: %s %q", st, detail)
		}
	})
}

func TestSettingsReset(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	bad := []byte("{ not json\n")
	os.WriteFile(filepath.Join(dir, "settings.json"), bad, 0o600)
	show := ferry(t, nil, "--data-dir", dir, "settings", "show")
	if show.code != 2 || !strings.Contains(show.stderr, "config_invalid") {
		t.Fatalf("settings show of a bad file: %+v", show)
	}
	r := ferry(t, nil, "--data-dir", dir, "settings", "reset")
	if r.code != 0 {
		t.Fatalf("settings reset: %+v", r)
	}
	kept, err := os.ReadFile(filepath.Join(dir, "settings.json.bak"))
	if err != nil || !bytes.Equal(kept, bad) {
		t.Fatalf("the bad file was not kept as .bak: %v %q", err, kept)
	}
	if show := ferry(t, nil, "--data-dir", dir, "settings", "show", "--json"); show.code != 0 || !strings.Contains(show.stdout, "theme") {
		t.Fatalf("settings after reset: %+v", show)
	}
}
