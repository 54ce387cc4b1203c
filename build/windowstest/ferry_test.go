//go:build wine

package windowstest

import (
	"bufio"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	mcpsdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/ferrydesk/ferry/backend/errs"
	_ "github.com/ferrydesk/ferry/backend/provider/all" // the sites' simulators
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/record"
	"github.com/ferrydesk/ferry/backend/site"
)

// ferryExe runs ferry.exe under Wine with args and the data and settings
// directories of env.
func ferryExe(t *testing.T, env []string, args ...string) result {
	t.Helper()
	return runWine(t, 2*time.Minute, t.TempDir(), env, filepath.Join(bin, "ferry.exe"), args...)
}

// TestFerryExeUnderWine runs ferry.exe end to end against the simulator
// through a headless Linux Chromium it attaches to (--browser-url), with
// FERRY_DATA_DIR and FERRY_CONFIG_DIR on Windows paths in the prefix: one
// simulator, one browser and one data directory shared by the cases in
// order, as a user's machine would have them.
func TestFerryExeUnderWine(t *testing.T) {
	// The browser starts in this test's directory: a Linux browser told to
	// download into C:\users\… takes it as a relative path and creates it
	// in its working directory. Ferry no longer asks a browser of another
	// system to (it takes the bytes over DevTools), but if it ever did, the
	// folders land here, not in the source tree.
	t.Chdir(t.TempDir())
	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	url := h.Browser.Endpoint()
	data, conf := newWinDir(t, "Ferry Data"), newWinDir(t, "Ferry Config")
	env := []string{"FERRY_DATA_DIR=" + data.win, "FERRY_CONFIG_DIR=" + conf.win}
	builtin := site.Builtin()
	sites := []string{sim.ChatGPT, sim.Gemini, sim.AIStudio, sim.Claude, sim.Grok, sim.Kimi, sim.DeepSeek}
	if got := sim.Sites(); len(got) < len(sites) {
		t.Fatalf("the simulator serves %v, want at least %v", got, sites)
	}

	prompts := map[string]string{}
	for _, id := range sites {
		t.Run("ask on "+id+" answers with the simulator's text, sent once", func(t *testing.T) {
			st, err := builtin.Get(id)
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer cancel()
			// A tab of its own in a fresh browser context, as in the Linux
			// TestAskEverySite: the sites' cookies do not mix.
			bc, err := h.Browser.NewContext(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer func() {
				cctx, stop := context.WithTimeout(context.Background(), 10*time.Second)
				defer stop()
				_ = bc.Dispose(cctx)
			}()
			tab, err := bc.OpenTab(ctx, "about:blank")
			if err != nil {
				t.Fatal(err)
			}
			if err := tab.Navigate(ctx, sim.URL(id, "/")); err != nil {
				t.Fatal(err)
			}
			prompt := "Which ferry crosses to " + st.Name + " from Windows?"
			r := ferryExe(t, env, "ask", "--site", id, "--tab", tab.ID(), "--json", "--browser-url", url,
				"--timeout", "60s", "--prompt", prompt)
			if r.code != 0 {
				t.Fatalf("ferry.exe ask: exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
			}
			var res struct{ Session, Site, Answer string }
			if err := json.Unmarshal([]byte(r.stdout), &res); err != nil {
				t.Fatalf("stdout is not one JSON result: %v\n%s", err, r.stdout)
			}
			if want := providertest.NormalAnswer(prompt); res.Answer != want || res.Site != id || res.Session == "" {
				t.Fatalf("ferry.exe ask gave %+v, want the simulator's answer %q in a session of %s", res, want, id)
			}
			subs := h.Server.Submissions(id)
			if len(subs) != 1 || strings.Join(strings.Fields(subs[0].Prompt), " ") != prompt || subs[0].Refused {
				t.Fatalf("the site received %+v, want the prompt exactly once", subs)
			}
			prompts[res.Session] = prompt
			t.Logf("%s: ferry.exe ask took %s", id, r.took.Round(10*time.Millisecond))
		})
	}
	if _, err := os.Stat(filepath.Join(data.linux, "db")); err != nil {
		t.Fatalf("the store is not in the Windows data directory %s: %v", data.win, err)
	}

	// sessionsList is `sessions list --json` by ferry.exe, by session id.
	sessionsList := func(t *testing.T) map[string]string {
		t.Helper()
		r := ferryExe(t, env, "sessions", "list", "--json")
		var list struct {
			Sessions []struct{ ID, Site, State, Prompt string }
			Total    int
		}
		if err := json.Unmarshal([]byte(r.stdout), &list); r.code != 0 || err != nil {
			t.Fatalf("sessions list: exit %d (%v)\n%s\n%s", r.code, err, r.stdout, r.stderr)
		}
		got := map[string]string{}
		for _, s := range list.Sessions {
			if s.State != "done" {
				t.Errorf("session %s of %s is %s, want done", s.ID, s.Site, s.State)
			}
			got[s.ID] = s.Prompt
		}
		return got
	}
	t.Run("code brings a verified zip home to a Windows folder over DevTools", func(t *testing.T) {
		out := newWinDir(t, "Ferry Out")
		before := h.Server.SubmissionCount(sim.ChatGPT)
		r := ferryExe(t, env, "code", "--site", "chatgpt", "--browser-url", url, "--out", out.win, "--timeout", "60s", "--json",
			"Build a greeting CLI", sim.Directive(sim.ScenarioCodeZip))
		var rc record.CodeReceipt
		if err := json.Unmarshal([]byte(r.stdout), &rc); err != nil {
			t.Fatalf("stdout is not a receipt (exit %d): %v\n%s\nstderr %s", r.code, err, r.stdout, r.stderr)
		}
		if r.code != 0 || !rc.OK || len(rc.Zips) != 1 {
			t.Fatalf("ferry.exe code: exit %d ok %v zips %+v error %+v\nstderr %s", r.code, rc.OK, rc.Zips, rc.Error, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT) - before; n != 1 {
			t.Fatalf("%d submissions, want exactly 1", n)
		}
		z := rc.Zips[0]
		if !z.Verified || z.Quarantined || !strings.EqualFold(z.SavedPath, out.win+`\project.zip`) {
			t.Fatalf("zip %+v, want project.zip verified in %s", z, out.win)
		}
		b, err := os.ReadFile(linuxPath(t, z.SavedPath))
		if err != nil {
			t.Fatal(err)
		}
		if sum := sha256.Sum256(b); hex.EncodeToString(sum[:]) != z.SHA256 || int64(len(b)) != z.Size {
			t.Fatalf("the zip on disk (%d bytes) is not the one the receipt names (%d bytes, sha256 %s)", len(b), z.Size, z.SHA256)
		}
		if _, err := os.Stat(linuxPath(t, z.Sidecar)); err != nil {
			t.Fatalf("provenance sidecar: %v", err)
		}
		// The Linux browser cannot write into C:\users\…: Ferry must have
		// found that out and taken the bytes over the DevTools connection.
		if tr := z.Transport; tr == nil || tr.FilesShared == nil || *tr.FilesShared || tr.Way == "" {
			t.Fatalf("transport %+v, want the bytes over DevTools from a browser that does not share Ferry's files", tr)
		}
		t.Logf("code: %d bytes by %s (%s) in %s", z.Size, z.Transport.Way, z.Transport.Sharing, r.took.Round(10*time.Millisecond))
	})

	t.Run("sessions lists every run from the store on the Windows path", func(t *testing.T) {
		got := sessionsList(t)
		if len(prompts) != len(sites) {
			t.Fatalf("%d runs were answered, want one per site (%d)", len(prompts), len(sites))
		}
		for id, p := range prompts {
			if got[id] != p {
				t.Errorf("session %s: prompt %q, want %q", id, got[id], p)
			}
		}
	})

	t.Run("serve owns the data directory and a second ferry.exe goes through it", func(t *testing.T) {
		if r := ferryExe(t, env, "approvals", "list"); r.code != errs.ExitCode(errs.New(errs.HubNotRunning, "x")) || !strings.Contains(r.stderr, "hub_not_running") {
			t.Fatalf("approvals list without an owner: exit %d\n%s", r.code, r.stderr)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, wine, filepath.Join(bin, "ferry.exe"), "serve", "--json")
		cmd.Dir, cmd.Env = t.TempDir(), wineEnv(env...)
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		lines := bufio.NewReader(out)
		first, err := lines.ReadString('\n')
		go func() { _, _ = io.Copy(io.Discard, lines); done <- cmd.Wait() }()
		var info struct {
			Port    int
			HubFile string
		}
		if err != nil || json.Unmarshal([]byte(first), &info) != nil || info.Port == 0 {
			_ = cmd.Process.Kill()
			t.Fatalf("ferry.exe serve printed %q (%v)\nstderr %s", first, err, stderr.String())
		}
		hub := linuxPath(t, info.HubFile)
		if filepath.Dir(hub) != data.linux {
			t.Fatalf("the discovery file %s is not in the data directory %s", info.HubFile, data.win)
		}
		if _, err := os.Stat(hub); err != nil {
			t.Fatalf("discovery file: %v", err)
		}
		// approvals exist only in an owner: the client reached serve.
		if r := ferryExe(t, env, "approvals", "list"); r.code != 0 {
			t.Fatalf("approvals list through ferry.exe serve: exit %d\n%s\n%s", r.code, r.stdout, r.stderr)
		}
		got := sessionsList(t)
		for id, p := range prompts {
			if got[id] != p {
				t.Fatalf("sessions list through serve has %v, want run %s (%q) among them", got, id, p)
			}
		}
		// Wine turns SIGINT into the console's Ctrl+C, which ferry.exe
		// takes as the user's stop.
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		if err := <-done; err != nil {
			t.Fatalf("ferry.exe serve did not stop cleanly on Ctrl+C: %v\n%s", err, stderr.String())
		}
		if _, err := os.Stat(hub); !os.IsNotExist(err) {
			t.Fatalf("the discovery file outlived serve: %v", err)
		}
	})

	t.Run("mcp over stdio initializes, lists its tools and answers a call", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
		defer cancel()
		cmd := exec.CommandContext(ctx, wine, filepath.Join(bin, "ferry.exe"), "mcp")
		cmd.Dir, cmd.Env = t.TempDir(), wineEnv(env...)
		stdin, err := cmd.StdinPipe()
		if err != nil {
			t.Fatal(err)
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		cs, err := mcpsdk.NewClient(&mcpsdk.Implementation{Name: "windowstest", Version: "test"}, nil).
			Connect(ctx, &mcpsdk.IOTransport{Reader: stdout, Writer: stdin}, nil)
		if err != nil {
			_ = cmd.Process.Kill()
			t.Fatalf("initialize ferry.exe mcp: %v\n%s", err, stderr.String())
		}
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, tl := range tools.Tools {
			names = append(names, tl.Name)
		}
		if !strings.Contains(","+strings.Join(names, ",")+",", ",sessions,") || !strings.Contains(","+strings.Join(names, ",")+",", ",ask,") {
			t.Fatalf("tools/list gave %v, want ask and sessions among them", names)
		}
		// An agent sees only its own jobs (the user's runs need a grant),
		// so the call is sites, which names every site Ferry knows.
		res, err := cs.CallTool(ctx, &mcpsdk.CallToolParams{Name: "sites", Arguments: map[string]any{}})
		if err != nil || res.IsError {
			t.Fatalf("tools/call sites: %v %+v\n%s", err, res, stderr.String())
		}
		raw, _ := json.Marshal(res.StructuredContent)
		for _, id := range sites {
			if !strings.Contains(string(raw), `"`+id+`"`) {
				t.Fatalf("tools/call sites does not name %s:\n%s", id, raw)
			}
		}
		_ = cs.Close()
		if err := <-done; err != nil {
			t.Fatalf("ferry.exe mcp did not end cleanly when its stdin closed: %v\n%s", err, stderr.String())
		}
	})

	t.Run("doctor on a store of garbage is a clear envelope with Linux's exit code", func(t *testing.T) {
		bad := newWinDir(t, "Ferry Damaged")
		if err := os.MkdirAll(filepath.Join(bad.linux, "db"), 0o700); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{"MANIFEST", "000001.sst", "000001.vlog", "KEYREGISTRY"} {
			junk := make([]byte, 64<<10)
			_, _ = rand.Read(junk)
			if err := os.WriteFile(filepath.Join(bad.linux, "db", name), junk, 0o600); err != nil {
				t.Fatal(err)
			}
		}
		lin := t.TempDir()
		if err := os.CopyFS(lin, os.DirFS(bad.linux)); err != nil {
			t.Fatal(err)
		}
		type check struct{ ID, Status, Detail, Fix string }
		doctor := func(r result) (store check) {
			var rep struct {
				OK     bool
				Checks []check
			}
			if err := json.Unmarshal([]byte(r.stdout), &rep); err != nil {
				t.Fatalf("doctor --json: %v\n%s\n%s", err, r.stdout, r.stderr)
			}
			for _, c := range rep.Checks {
				if c.ID == "store" {
					return c
				}
			}
			t.Fatalf("no store check in %s", r.stdout)
			return check{}
		}
		win := ferryExe(t, []string{"FERRY_DATA_DIR=" + bad.win, "FERRY_CONFIG_DIR=" + conf.win}, "doctor", "--json")
		linux := runLinux(t, []string{"FERRY_DATA_DIR=" + lin}, "doctor", "--json")
		ws, ls := doctor(win), doctor(linux)
		if win.code == 0 || win.code != linux.code || ws.Status != ls.Status || ws.Status == "ok" || ws.Detail == "" || ws.Fix == "" {
			t.Fatalf("ferry.exe doctor: exit %d, store %+v\nLinux ferry doctor: exit %d, store %+v", win.code, ws, linux.code, ls)
		}
		ses := ferryExe(t, []string{"FERRY_DATA_DIR=" + bad.win, "FERRY_CONFIG_DIR=" + conf.win}, "sessions", "list", "--json")
		sesLinux := runLinux(t, []string{"FERRY_DATA_DIR=" + lin}, "sessions", "list", "--json")
		var env struct{ Error *errs.Envelope }
		if err := json.Unmarshal([]byte(ses.stdout), &env); err != nil || env.Error == nil || env.Error.RetryHint == "" {
			t.Fatalf("sessions list on garbage gave no envelope with a hint: exit %d\n%s\n%s", ses.code, ses.stdout, ses.stderr)
		}
		var envLinux struct{ Error *errs.Envelope }
		_ = json.Unmarshal([]byte(sesLinux.stdout), &envLinux)
		if ses.code != sesLinux.code || envLinux.Error == nil || env.Error.Code != envLinux.Error.Code {
			t.Fatalf("sessions list on garbage: ferry.exe exit %d %+v, Linux exit %d %+v", ses.code, env.Error, sesLinux.code, envLinux.Error)
		}
		t.Logf("damaged store: exit %d, %s: %s (hint: %s)", ses.code, env.Error.Code, env.Error.Message, env.Error.RetryHint)
	})
}
