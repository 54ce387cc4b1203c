package cli

import (
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/provider/providertest"
	"github.com/ferrydesk/ferry/backend/provider/sim"
	"github.com/ferrydesk/ferry/backend/service"
)

// TestAskSendsSourcesAsAZip: `ferry ask --repo DIR --source PATH
// --source-as zip` refuses a repository with an untracked or modified file
// under the paths before anything reaches the site, naming the files; a
// clean one's sources arrive at the site as one zip holding exactly the
// tracked files at HEAD, recorded with its sha256 and removed after the run.
func TestAskSendsSourcesAsAZip(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required: %v", err)
	}
	// git, here and in ferry, reads no user or system configuration: the
	// environment of each process rather than t.Setenv, which would keep the
	// test from running in parallel with the others.
	gitEnv := []string{"GIT_CONFIG_GLOBAL=" + os.DevNull, "GIT_CONFIG_NOSYSTEM=1", "GIT_AUTHOR_NAME=Ferry Test",
		"GIT_AUTHOR_EMAIL=test@ferry.invalid", "GIT_COMMITTER_NAME=Ferry Test", "GIT_COMMITTER_EMAIL=test@ferry.invalid"}
	work := filepath.Join(t.TempDir(), "shop")
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", work}, args...)...)
		cmd.Env = append(os.Environ(), gitEnv...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	tracked := map[string][]byte{
		"main.go":         []byte("package main\n\nfunc main() {}\n"),
		"docs/readme.md":  []byte("# shop\n"),
		"assets/logo.bin": {0, 1, 2, 0xff, 0xfe, '\n', 0},
		".gitignore":      []byte("*.log\n"),
	}
	for name, body := range tracked {
		p := filepath.Join(work, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, body, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(work, 0o755); err != nil {
		t.Fatal(err)
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	// Ignored, so neither refused nor sent.
	if err := os.WriteFile(filepath.Join(work, "debug.log"), []byte("noise"), 0o644); err != nil {
		t.Fatal(err)
	}
	commit := git("rev-parse", "HEAD")

	h, err := providertest.Start(providertest.DefaultSimOptions...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	dataDir := t.TempDir()
	ask := func(t *testing.T, prompt string, extra ...string) result {
		t.Helper()
		args := []string{"ask", "--json", "--browser-url", h.Browser.Endpoint(), "--data-dir", dataDir, "--timeout", "50s",
			"--site", sim.ChatGPT, "--new-chat", "--repo", work, "--source", "."}
		return ferry(t, gitEnv, append(append(args, extra...), prompt)...)
	}

	t.Run("code mode attaches the zip instead of naming a pushed commit", func(t *testing.T) {
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioCodeZip})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		r := ferry(t, gitEnv, "code", "--json", "--browser-url", h.Browser.Endpoint(), "--data-dir", dataDir, "--out", t.TempDir(), "--timeout", "50s",
			"--site", sim.ChatGPT, "--repo", work, "--source", "main.go", "--source", "docs", "--source-as", "zip", "Add a checkout page")
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		subs := h.Server.Submissions(sim.ChatGPT)
		last := subs[len(subs)-1]
		if !reflect.DeepEqual(last.Attachments, []string{"shop-" + commit[:12] + ".zip"}) || strings.Contains(last.Prompt, "Repository:") {
			t.Fatalf("the site got %v with %q", last.Attachments, last.Prompt)
		}
		ups := h.Server.Uploads(sim.ChatGPT)
		if got := sortedKeys(unzip(t, ups[len(ups)-1].Body)); !reflect.DeepEqual(got, []string{"docs/readme.md", "main.go"}) {
			t.Fatalf("the zip holds %v", got)
		}
	})

	t.Run("a clean repository's tracked files arrive as one zip, recorded and then removed", func(t *testing.T) {
		subsBefore, upsBefore := h.Server.SubmissionCount(sim.ChatGPT), len(h.Server.Uploads(sim.ChatGPT))
		r := ask(t, "Review the shop", "--source-as", "zip")
		if r.code != 0 {
			t.Fatalf("exit %d\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		name := "shop-" + commit[:12] + ".zip"
		// The code-mode run above put a zip of that name in ChatGPT's library,
		// which renames this one (providers reference, ChatGPT upload).
		held := "shop-" + commit[:12] + "(1).zip"
		subs := h.Server.Submissions(sim.ChatGPT)
		if len(subs) != subsBefore+1 || subs[len(subs)-1].Prompt != "Review the shop" || !reflect.DeepEqual(subs[len(subs)-1].Attachments, []string{held}) {
			t.Fatalf("the site got %+v, want one more prompt with %s", subs, held)
		}
		ups := h.Server.Uploads(sim.ChatGPT)[upsBefore:]
		if len(ups) != 1 || ups[0].Name != held || !ups[0].Completed {
			t.Fatalf("uploads %+v", ups)
		}
		got := unzip(t, ups[0].Body)
		if !reflect.DeepEqual(sortedKeys(got), sortedKeys(tracked)) {
			t.Fatalf("the zip holds %v, want the tracked files %v", sortedKeys(got), sortedKeys(tracked))
		}
		for n, body := range tracked {
			if !bytes.Equal(got[n], body) {
				t.Fatalf("%s in the zip is %q, want %q", n, got[n], body)
			}
		}
		var out askJSON
		if err := json.Unmarshal([]byte(r.stdout), &out); err != nil {
			t.Fatal(err)
		}
		show := ferry(t, gitEnv, "sessions", "show", "--json", "--data-dir", dataDir, out.Session)
		var s service.SessionDetail
		if show.code != 0 || json.Unmarshal([]byte(show.stdout), &s) != nil || s.Session == nil {
			t.Fatalf("sessions show: exit %d %s %s", show.code, show.stdout, show.stderr)
		}
		sum := sha256.Sum256(ups[0].Body)
		att := s.Session.Attachments
		if len(att) != 1 || att[0].Name != name || att[0].SiteName != held || att[0].SHA256 != hex.EncodeToString(sum[:]) || att[0].SHA256 != ups[0].SHA256 || att[0].Bytes != ups[0].Size {
			t.Fatalf("recorded attachments %+v, want %s with sha256 %s", att, name, ups[0].SHA256)
		}
		if _, err := os.Stat(filepath.Dir(att[0].Path)); !os.IsNotExist(err) {
			t.Fatalf("the zip's directory %s is still there after the run: %v", filepath.Dir(att[0].Path), err)
		}
		if !strings.HasPrefix(att[0].Path, os.TempDir()) || strings.HasPrefix(att[0].Path, work) {
			t.Fatalf("the zip was made at %s, not in a temporary directory", att[0].Path)
		}
	})

	t.Run("a zip over the site's limit is refused, named, and nothing is sent", func(t *testing.T) {
		h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioUploadLimit, Params: map[string]string{"max": "100B"}})
		defer h.Server.SetScenario(sim.ChatGPT, sim.Scenario{Name: sim.ScenarioNormal})
		subs := h.Server.SubmissionCount(sim.ChatGPT)
		r := ask(t, "Too big to send")
		if r.code != 3 || !strings.Contains(r.stdout+r.stderr, "attachment_rejected") || !strings.Contains(r.stdout+r.stderr, "shop-"+commit[:12]+".zip") {
			t.Fatalf("exit %d, want 3 with attachment_rejected naming the zip\nstdout %s\nstderr %s", r.code, r.stdout, r.stderr)
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != subs {
			t.Fatalf("%d submissions, want %d", n, subs)
		}
	})

	t.Run("a modified or untracked file is refused, named, before anything is sent", func(t *testing.T) {
		if err := os.WriteFile(filepath.Join(work, "main.go"), []byte("package main // edited\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "docs", "draft.md"), []byte("wip"), 0o644); err != nil {
			t.Fatal(err)
		}
		subs, ups := h.Server.SubmissionCount(sim.ChatGPT), len(h.Server.Uploads(sim.ChatGPT))
		r := ask(t, "This must not be sent", "--source-as", "zip")
		if r.code != exitOf(errs.BadInput) {
			t.Fatalf("exit %d, want %d\nstdout %s\nstderr %s", r.code, exitOf(errs.BadInput), r.stdout, r.stderr)
		}
		for _, want := range []string{"M main.go", "?? docs/draft.md", "commit or stash"} {
			if !strings.Contains(r.stdout+r.stderr, want) {
				t.Fatalf("the refusal does not say %q: %s %s", want, r.stdout, r.stderr)
			}
		}
		if n := h.Server.SubmissionCount(sim.ChatGPT); n != subs {
			t.Fatalf("%d submissions, want %d", n, subs)
		}
		if n := len(h.Server.Uploads(sim.ChatGPT)); n != ups {
			t.Fatalf("%d uploads, want %d: a file reached the site", n, ups)
		}
	})

	t.Run("an ask sends sources only as a zip, and --source-as needs them", func(t *testing.T) {
		if r := ask(t, "hi", "--source-as", "provenance"); r.code != exitOf(errs.BadInput) || !strings.Contains(r.stdout+r.stderr, "only as a zip") {
			t.Fatalf("exit %d %s %s", r.code, r.stdout, r.stderr)
		}
		r := ferry(t, gitEnv, "ask", "--site", "chatgpt", "--data-dir", dataDir, "--source-as", "zip", "hi")
		if r.code != exitOf(errs.BadInput) || !strings.Contains(r.stderr, "--source-as needs --repo") {
			t.Fatalf("exit %d %s", r.code, r.stderr)
		}
	})
}

// unzip reads a zip's regular files: name to bytes.
func unzip(t *testing.T, b []byte) map[string][]byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("the site did not get a zip: %v", err)
	}
	out := map[string][]byte{}
	for _, f := range zr.File {
		if f.FileInfo().IsDir() {
			continue
		}
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = body
	}
	return out
}

func sortedKeys(m map[string][]byte) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
