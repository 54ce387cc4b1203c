package prompt

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

// gitRepo makes a work tree with a pushed commit: a bare "upstream" and a
// clone-like work tree tracking it, both in t.TempDir().
func gitRepo(t *testing.T) (work string, git func(args ...string) string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Fatalf("git is required: %v", err)
	}
	t.Setenv("GIT_CONFIG_GLOBAL", os.DevNull)
	t.Setenv("GIT_CONFIG_NOSYSTEM", "1")
	t.Setenv("GIT_AUTHOR_NAME", "Ferry Test")
	t.Setenv("GIT_AUTHOR_EMAIL", "test@ferry.invalid")
	t.Setenv("GIT_COMMITTER_NAME", "Ferry Test")
	t.Setenv("GIT_COMMITTER_EMAIL", "test@ferry.invalid")
	base := t.TempDir()
	up := filepath.Join(base, "upstream.git")
	work = filepath.Join(base, "work")
	run := func(dir string, args ...string) string {
		t.Helper()
		out, err := exec.Command("git", append([]string{"-C", dir}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return strings.TrimSpace(string(out))
	}
	os.MkdirAll(work, 0o755)
	run(base, "init", "-q", "--bare", "-b", "main", up)
	run(work, "init", "-q", "-b", "main")
	os.MkdirAll(filepath.Join(work, "backend", "api"), 0o755)
	os.WriteFile(filepath.Join(work, "backend", "api", "api.go"), []byte("package api\n"), 0o644)
	os.WriteFile(filepath.Join(work, "go.mod"), []byte("module x\n"), 0o644)
	run(work, "add", ".")
	run(work, "commit", "-q", "-m", "first")
	run(work, "remote", "add", "origin", up)
	run(work, "push", "-q", "-u", "origin", "main")
	return work, func(args ...string) string { return run(work, args...) }
}

func TestCheckSourcesAcceptsPushedCleanPaths(t *testing.T) {
	work, git := gitRepo(t)
	// The remote URL as a user might have it, with a token in it; the
	// tracking ref stays, so no network is needed.
	git("remote", "set-url", "origin", "https://alice:ghp_SECRET@github.com/acme/app.git")
	p, err := CheckSources(context.Background(), work, []string{"backend/api", filepath.Join(work, "go.mod")})
	if err != nil {
		t.Fatalf("CheckSources: %v", err)
	}
	if p.Commit != git("rev-parse", "HEAD") || p.Branch != "main" || p.Upstream != "origin/main" {
		t.Errorf("provenance = %+v", p)
	}
	if p.RepoURL != "https://github.com/acme/app.git" {
		t.Errorf("repo url = %q", p.RepoURL)
	}
	if strings.Join(p.Paths, ",") != "backend/api,go.mod" {
		t.Errorf("paths = %v", p.Paths)
	}
	out := t.TempDir()
	path, err := WriteSourceProvenance(out, p)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(path)
	if strings.Contains(string(raw), "SECRET") || filepath.Base(path) != ".source-provenance.json" {
		t.Errorf("%s: %s", path, raw)
	}
	var back SourceProvenance
	if err := json.Unmarshal(raw, &back); err != nil || back.Commit != p.Commit {
		t.Errorf("the record does not round-trip: %v %+v", err, back)
	}
	steps, err := Compose(Request{Task: "x", Source: p})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Repository: https://github.com/acme/app.git", "Commit: " + p.Commit, "- backend/api\n", "- go.mod\n"} {
		if !strings.Contains(steps[0].Prompt, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(steps[0].Prompt, "SECRET") {
		t.Error("the token reached the prompt")
	}
}

func TestCheckSourcesRefusesWhatTheModelCannotRead(t *testing.T) {
	cases := []struct {
		name  string
		setup func(t *testing.T, work string, git func(...string) string) (root string, paths []string)
		says  string
	}{
		{"an untracked file", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			os.WriteFile(filepath.Join(work, "new.go"), []byte("x"), 0o644)
			return work, []string{"new.go"}
		}, `"new.go" is not tracked`},
		{"a modified file", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			os.WriteFile(filepath.Join(work, "go.mod"), []byte("module y\n"), 0o644)
			return work, []string{"go.mod"}
		}, `"go.mod" has uncommitted changes`},
		{"an untracked file inside a source directory", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			os.WriteFile(filepath.Join(work, "backend", "api", "extra.go"), []byte("x"), 0o644)
			return work, []string{"backend"}
		}, `"backend" has uncommitted changes`},
		{"an unpushed commit", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			os.WriteFile(filepath.Join(work, "go.mod"), []byte("module z\n"), 0o644)
			git("commit", "-q", "-am", "local only")
			return work, []string{"go.mod"}
		}, "is not on its upstream origin/main"},
		{"a branch without upstream", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			git("switch", "-q", "-c", "feature")
			return work, []string{"go.mod"}
		}, `branch "feature" has no upstream`},
		{"a detached HEAD", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			git("switch", "-q", "--detach")
			return work, []string{"go.mod"}
		}, "HEAD is detached"},
		{"a path outside the repository", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			return work, []string{"../outside.go"}
		}, "is outside the repository"},
		{"a directory that is not a repository", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			return t.TempDir(), []string{"x"}
		}, "is not inside a git work tree"},
		{"a glob that would match tracked files", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			return work, []string{"*.mod"}
		}, `"*.mod" is not tracked`},
		{"no paths", func(t *testing.T, work string, git func(...string) string) (string, []string) {
			return work, nil
		}, "no source path"},
	}
	for _, c := range cases {
		t.Run(c.name+" is refused with the fix", func(t *testing.T) {
			work, git := gitRepo(t)
			root, paths := c.setup(t, work, git)
			_, err := CheckSources(context.Background(), root, paths)
			if !errs.Has(err, errs.BadInput) {
				t.Fatalf("err = %v", err)
			}
			e := errs.From(err)
			if !strings.Contains(e.Message, c.says) || e.RetryHint == errs.New(errs.BadInput, "").RetryHint {
				t.Errorf("message %q (want %q), hint %q", e.Message, c.says, e.RetryHint)
			}
		})
	}
}

func TestStripCredentials(t *testing.T) {
	cases := map[string]string{
		"https://user:token@github.com/acme/app.git":     "https://github.com/acme/app.git",
		"https://ghp_abc123@github.com/acme/app.git":     "https://github.com/acme/app.git",
		"https://github.com/acme/app.git?access_token=x": "https://github.com/acme/app.git",
		"http://u:p@10.0.0.1:8080/r.git#frag":            "http://10.0.0.1:8080/r.git",
		"ssh://git@github.com/acme/app.git":              "ssh://github.com/acme/app.git",
		"git@github.com:acme/app.git":                    "git@github.com:acme/app.git",
		"deploy:s3cret@gitlab.example.com:acme/app.git":  "gitlab.example.com:acme/app.git",
		"/srv/git/app.git":                               "/srv/git/app.git",
		"https://user:p%zz@github.com/acme/app.git":      "https://github.com/acme/app.git",
	}
	for in, want := range cases {
		if got := StripCredentials(in); got != want {
			t.Errorf("StripCredentials(%q) = %q, want %q", in, got, want)
		}
	}
}
