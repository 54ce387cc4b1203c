//go:build linux

// This test fills a real small disk (spacetest's tmpfs, Linux only); the
// Windows side of a full disk is checked in the store and artifact packages.

package cli

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/store"
	"github.com/ferrydesk/ferry/backend/store/spacetest"
)

// TestAFullDisk runs the built ferry binary against the simulator with its
// data directory on a small tmpfs that the test fills before a run, while
// a run streams its answer, under a running owner, and while a code run
// saves its zip.
func TestAFullDisk(t *testing.T) {
	t.Parallel()
	spacetest.Require(t)
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	diskFull := exitOf(errs.DiskFull)
	smallDisk := func(t *testing.T) (disk, dataDir string) {
		disk = spacetest.Mount(t, store.SpaceMargin+24<<20)
		return disk, filepath.Join(disk, "data")
	}
	// fillOnSend fills disk as soon as the simulator has received one
	// more prompt than now, then releases the answers held by hold (the
	// prompt's hold param: its answer waits at its last piece until the
	// disk is full, however slowly the ballast is written on a loaded
	// machine), and keeps it full until the test ends or the returned free
	// is called. free waits for the filling to finish: a ballast removed
	// while it was still being written would go on taking the disk through
	// its open file until it was closed.
	fillOnSend := func(t *testing.T, disk, hold string) (free func()) {
		before := h.Server.SubmissionCount(sim.ChatGPT)
		done := make(chan error, 1)
		var release func()
		go func() {
			for deadline := time.Now().Add(60 * time.Second); time.Now().Before(deadline); time.Sleep(2 * time.Millisecond) {
				if h.Server.SubmissionCount(sim.ChatGPT) > before {
					var err error
					release, err = spacetest.FillNow(disk, 0)
					h.Server.Release(hold)
					done <- err
					return
				}
			}
			done <- nil
		}()
		var once sync.Once
		free = func() {
			once.Do(func() {
				if err := <-done; err != nil {
					t.Error(err)
				}
				if release != nil {
					release()
				}
			})
		}
		t.Cleanup(free)
		return free
	}
	sessionOf := regexp.MustCompile(`(?m)^\s+session: (\S+)$`)

	t.Run("a data directory without room refuses ask with disk_full before anything is sent", func(t *testing.T) {
		disk, dataDir := smallDisk(t)
		spacetest.Fill(t, disk, 1<<20)
		before := h.Server.SubmissionCount(sim.ChatGPT)
		r := ferry(t, nil, "ask", "--site", "chatgpt", "--browser-url", url, "--data-dir", dataDir, "--timeout", "45s", "no room for this")
		if r.code != diskFull || !strings.Contains(r.stderr, "disk_full") || !strings.Contains(r.stderr, dataDir) || !strings.Contains(r.stderr, "--data-dir") {
			t.Fatalf("exit %d, stderr %s: want disk_full naming %s and what to do", r.code, r.stderr, dataDir)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("the site received %d prompts", n-before)
		}
	})

	t.Run("a disk that fills while the answer streams: the answer is printed and disk_full says it was not journaled", func(t *testing.T) {
		disk, dataDir := smallDisk(t)
		prompt := "Answer me although the disk fills " + sim.Directive(sim.ScenarioNormal, "hold", "full-stream")
		free := fillOnSend(t, disk, "full-stream")
		r := ferry(t, nil, "ask", "--site", "chatgpt", "--new-chat", "--browser-url", url, "--data-dir", dataDir, "--timeout", "45s", prompt)
		if r.code != diskFull || r.stdout != providertest.NormalAnswer(prompt)+"\n" {
			t.Fatalf("exit %d, stdout %q, stderr %s: want the answer and exit %d", r.code, r.stdout, r.stderr, diskFull)
		}
		if !strings.Contains(r.stderr, "disk_full") || !strings.Contains(r.stderr, "could not be written to the history") || strings.Contains(r.stderr, "SIGBUS") {
			t.Fatalf("stderr %s: want disk_full saying the answer was not journaled", r.stderr)
		}
		m := sessionOf.FindStringSubmatch(r.stderr)
		if m == nil {
			t.Fatalf("stderr names no session: %s", r.stderr)
		}
		// With room again, reattach journals the answer from the
		// conversation without sending the prompt again.
		free()
		before := h.Server.SubmissionCount(sim.ChatGPT)
		r = ferry(t, nil, "reattach", "--session", m[1], "--browser-url", url, "--data-dir", dataDir)
		if r.code != 0 || !strings.Contains(r.stdout, providertest.NormalAnswer(prompt)) {
			t.Fatalf("reattach after the disk was freed: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != before {
			t.Fatalf("reattach sent the prompt again (%d submissions)", n-before)
		}
	})

	t.Run("a run in Ferry's own browser whose disk fills gives the answer with its error in JSON and closes the browser", func(t *testing.T) {
		disk, dataDir := smallDisk(t)
		prompt := "Answer in JSON although the disk fills " + sim.Directive(sim.ScenarioNormal, "hold", "full-json")
		args := []string{"ask", "--site", "chatgpt", "--headless", "--chromium", providertest.ChromiumBin, "--data-dir", dataDir, "--timeout", "60s", "--json"}
		for _, f := range h.Server.ChromiumFlags() {
			args = append(args, "--browser-arg="+f)
		}
		fillOnSend(t, disk, "full-json")
		r := ferry(t, nil, append(args, prompt)...)
		var out askJSON
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatalf("stdout is not one JSON result (%v):\n%s\nstderr %s", err, r.stdout, r.stderr)
		}
		if r.code != diskFull || out.Answer != providertest.NormalAnswer(prompt) || out.Error == nil || out.Error.Code != errs.DiskFull || out.Session == "" {
			t.Fatalf("exit %d, result %+v: want the answer, its session and the disk_full error", r.code, out)
		}
		profile := filepath.Join(dataDir, "browser-profile")
		for _, p := range processesNaming(t, profile) {
			t.Errorf("a browser on the data directory's profile outlived ferry: %s", p)
		}
	})

	t.Run("the owner stays up on a full disk and answers with the envelope", func(t *testing.T) {
		disk, dataDir := smallDisk(t)
		owner := startServe(t, dataDir, "--browser-url", url)
		body := filepath.Join(t.TempDir(), "t.txt")
		if err := os.WriteFile(body, []byte("Hello {{name}}\n"), 0o600); err != nil {
			t.Fatal(err)
		}
		release := spacetest.Fill(t, disk, 0)
		r := ferry(t, nil, "templates", "save", "greet", "--file", body, "--vars", "name", "--data-dir", dataDir)
		if r.code != diskFull || !strings.Contains(r.stderr, "disk_full") {
			t.Fatalf("templates save on a full disk through the owner: exit %d, stderr %s", r.code, r.stderr)
		}
		if r := ferry(t, nil, "templates", "list", "--data-dir", dataDir); r.code != 0 || strings.Contains(r.stdout, "greet") {
			t.Fatalf("the owner after the refused save: exit %d, stdout %s, stderr %s", r.code, r.stdout, r.stderr)
		}
		release()

		prompt := "Ask the owner while its disk fills " + sim.Directive(sim.ScenarioNormal, "hold", "full-owner")
		fillOnSend(t, disk, "full-owner")
		r = ferry(t, nil, "ask", "--site", "chatgpt", "--new-chat", "--data-dir", dataDir, "--timeout", "45s", prompt)
		if r.code != diskFull || r.stdout != providertest.NormalAnswer(prompt)+"\n" || !strings.Contains(r.stderr, "could not be written to the history") {
			t.Fatalf("ask through the owner as the disk fills: exit %d, stdout %q, stderr %s", r.code, r.stdout, r.stderr)
		}
		t.Logf("ask through the owner as the disk filled: %s", r.stderr)
		select {
		case err := <-owner.done:
			t.Fatalf("ferry serve ended on a full disk: %v", err)
		default:
		}
		if r := ferry(t, nil, "sessions", "list", "--data-dir", dataDir); r.code != 0 {
			t.Fatalf("the owner does not answer after the full disk: exit %d, stderr %s", r.code, r.stderr)
		}
	})

	t.Run("a code run whose disk fills before the zip is saved is disk_full and leaves no half-written file", func(t *testing.T) {
		disk, dataDir := smallDisk(t)
		out := filepath.Join(disk, "out")
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		tab, err := h.Browser.OpenTab(ctx, sim.URL(sim.ChatGPT, "/"))
		if err != nil {
			t.Fatal(err)
		}
		fillOnSend(t, disk, "full-code")
		r := ferry(t, nil, "code", "--tab", tab.ID(), "--browser-url", url, "--data-dir", dataDir, "--out", out, "--timeout", "50s",
			"Build a greeting CLI", sim.Directive(sim.ScenarioCodeZip, "hold", "full-code"))
		if r.code != diskFull || !strings.Contains(r.stderr, "disk_full") {
			t.Fatalf("exit %d\nstdout %s\nstderr %s: want disk_full", r.code, r.stdout, r.stderr)
		}
		t.Logf("ferry code on a disk that filled: %s", r.stderr)
		for _, f := range allFiles(t, out) {
			t.Errorf("the refused save left %s", f)
		}
	})
}

// processesNaming lists the command lines of the processes whose command
// line holds s.
func processesNaming(t *testing.T, s string) []string {
	t.Helper()
	var out []string
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	for _, d := range dirs {
		b, err := os.ReadFile(filepath.Join(d, "cmdline"))
		if err != nil {
			continue
		}
		if line := strings.ReplaceAll(string(b), "\x00", " "); strings.Contains(line, s) {
			out = append(out, line)
		}
	}
	return out
}
