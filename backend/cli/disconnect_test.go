package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/job"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
)

// TestABrowserKilledMidAnswerExitsBrowserDisconnectedAndReattachCollects:
// `ferry ask` launches its own headless Chromium; the Chromium process group
// is killed with SIGKILL while the simulator streams the answer. ask exits
// at once with browser_disconnected's exit code and a hint naming
// `ferry reattach`; the run stays active with its conversation, the doctor
// lists it, and `ferry reattach` (launching Ferry's browser again) prints
// the whole answer the site finished, the simulator having received the
// prompt exactly once.
func TestABrowserKilledMidAnswerExitsBrowserDisconnectedAndReattachCollects(t *testing.T) {
	t.Parallel()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	srv := sim.New(sim.WithPace(4, 120*time.Millisecond))
	if err := srv.Start(ctx, "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	dataDir := t.TempDir()
	d := "--data-dir=" + dataDir
	launch := []string{"--headless", "--chromium", providertest.ChromiumBin}
	for _, f := range srv.ChromiumFlags() {
		launch = append(launch, "--browser-arg="+f)
	}
	prompt := "Killed Chromium question about estuaries"

	cmd := exec.CommandContext(ctx, binary, append(append([]string{}, launch...), "ask", "--site", "chatgpt", d, "--timeout", "60s", "--json", prompt)...)
	cmd.Env = hermeticEnv(t)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	for srv.SubmissionCount(sim.ChatGPT) == 0 {
		if ctx.Err() != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("the prompt never reached the simulator: %s", errb.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
	journaled(t, ctx, dataDir, `"conversationUrl":"https://chatgpt.com/c/`)
	pid := chromiumOf(t, filepath.Join(dataDir, "browser-profile"))
	if err := syscall.Kill(-pid, syscall.SIGKILL); err != nil {
		t.Fatalf("kill chromium's process group %d: %v", pid, err)
	}
	killedAt := time.Now()
	_ = cmd.Wait()
	// Half the run's own 60 s timeout: only an ask that missed the
	// disconnect and waited on a dead browser takes that long.
	if took := time.Since(killedAt); took > 30*time.Second {
		t.Fatalf("ferry ask ended %s after the kill", took)
	}
	if code := cmd.ProcessState.ExitCode(); code != exitOf(errs.BrowserDisconnected) {
		t.Fatalf("exit %d, want %d (browser_disconnected)\nstdout %s\nstderr %s", code, exitOf(errs.BrowserDisconnected), out.String(), errb.String())
	}
	var res struct {
		Session string        `json:"session"`
		Error   errs.Envelope `json:"error"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		t.Fatalf("stdout is not one JSON result (%v):\n%s", err, out.String())
	}
	if res.Error.Code != errs.BrowserDisconnected || !strings.Contains(res.Error.RetryHint, "ferry reattach --session") {
		t.Fatalf("error %+v, want browser_disconnected naming ferry reattach", res.Error)
	}
	id := res.Error.Evidence["session"]
	if id == "" {
		id = res.Session
	}

	r := ferry(t, nil, "sessions", "show", "--json", id, d)
	var shown struct {
		Session job.Session `json:"session"`
	}
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &shown) != nil {
		t.Fatalf("sessions show: exit %d\n%s%s", r.code, r.stdout, r.stderr)
	}
	if s := shown.Session; !s.State.Active() || !s.State.Sent() || !strings.HasPrefix(s.ConversationURL, "https://chatgpt.com/c/") || s.Answer != "" {
		t.Fatalf("after the kill the run is %s with conversation %q and answer %q, want a sent, active run with its conversation", s.State, s.ConversationURL, s.Answer)
	}
	r = ferry(t, nil, "sessions", "doctor", "--json", d)
	if r.code != 0 || !strings.Contains(r.stdout, id) {
		t.Fatalf("sessions doctor does not list run %s: exit %d\n%s%s", id, r.code, r.stdout, r.stderr)
	}

	r = ferry(t, nil, append(append([]string{}, launch...), "reattach", "--session", id, d, "--timeout", "45s")...)
	if r.code != 0 {
		t.Fatalf("reattach: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
	}
	if r.stdout != providertest.NormalAnswer(prompt)+"\n" {
		t.Fatalf("reattach printed %q, want the whole answer", r.stdout)
	}
	if n := srv.SubmissionCount(sim.ChatGPT); n != 1 {
		t.Fatalf("the simulator received %d prompts, want exactly 1", n)
	}
	t.Logf("ask ended %s after the kill; reattach took %s: %s", time.Since(killedAt), r.took, strings.TrimSpace(r.stderr))
}

// journaled returns once the store under dataDir, held by another
// process, has written want: the moment the run journals its conversation,
// while the answer streams. The holder's lock keeps the store from being
// opened, so its write-ahead files are read instead: badger's .mem files
// hold each write, uncompressed and unencrypted (Ferry sets no key), as it
// commits, and a session record is far below the size badger moves to its
// value log. Only ctx ending (a hang) stops the polling otherwise.
func journaled(t *testing.T, ctx context.Context, dataDir, want string) {
	t.Helper()
	journaledMatch(t, ctx, dataDir, regexp.MustCompile(regexp.QuoteMeta(want)))
}

// journaledMatch is journaled for a pattern: it returns the first match's
// first group (the whole match without one).
func journaledMatch(t *testing.T, ctx context.Context, dataDir string, want *regexp.Regexp) string {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for ctx.Err() == nil {
		var found []string
		_ = filepath.WalkDir(dataDir, func(path string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() || found != nil || !strings.HasSuffix(path, ".mem") {
				return nil
			}
			if b, err := os.ReadFile(path); err == nil {
				if m := want.FindSubmatch(b); m != nil {
					for _, g := range m {
						found = append(found, string(g))
					}
				}
			}
			return nil
		})
		if found != nil {
			return found[len(found)-1]
		}
		select {
		case <-tick.C:
		case <-ctx.Done():
		}
	}
	t.Fatalf("the run never journaled %s under %s", want, dataDir)
	return ""
}

// chromiumOf is the pid of the Chromium holding profile (its SingletonLock
// names host-pid).
func chromiumOf(t *testing.T, profile string) int {
	t.Helper()
	pid, err := lockHolder(profile)
	if err != nil {
		t.Fatal(err)
	}
	return pid
}

// lockHolder is the pid in profile's SingletonLock.
func lockHolder(profile string) (int, error) {
	target, err := os.Readlink(filepath.Join(profile, "SingletonLock"))
	if err != nil {
		return 0, fmt.Errorf("no Chromium holds %s: %v", profile, err)
	}
	pid, err := strconv.Atoi(target[strings.LastIndex(target, "-")+1:])
	if err != nil || pid <= 0 {
		return 0, fmt.Errorf("SingletonLock %q names no pid", target)
	}
	return pid, nil
}
