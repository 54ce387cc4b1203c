package prompt

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/ferrydesk/ferry/backend/artifact"
	"github.com/ferrydesk/ferry/backend/errs"
	"github.com/ferrydesk/ferry/backend/platform"
)

// SourceProvenanceFile is the name of the record CheckSources' result is
// written to beside a run's outputs.
const SourceProvenanceFile = ".source-provenance.json"

// SourceProvenance pins the source a prompt works from: a commit that the
// upstream has, and paths that are tracked and clean in it.
type SourceProvenance struct {
	RepoURL   string    `json:"repoUrl"` // credentials stripped
	Commit    string    `json:"commit"`
	Branch    string    `json:"branch,omitempty"`
	Upstream  string    `json:"upstream,omitempty"`
	Paths     []string  `json:"paths"` // relative to the repository root, with forward slashes
	CheckedAt time.Time `json:"checkedAt,omitempty"`
}

// CheckSources proves that the model can be pointed at the user's source:
// root is inside a git work tree, every path is tracked and has no
// uncommitted or untracked changes, HEAD is on a branch whose upstream
// already contains it, and the upstream's remote has a URL. It runs the git
// CLI. Every refusal is a BadInput envelope naming the path or branch and
// the command that fixes it; a missing git is BadInput too.
func CheckSources(ctx context.Context, root string, paths []string) (*SourceProvenance, error) {
	g, rels, err := cleanSources(ctx, root, paths, true)
	if err != nil {
		return nil, err
	}
	p := &SourceProvenance{Paths: rels}
	if p.Commit, err = g.out(ctx, "rev-parse", "--verify", "HEAD"); err != nil {
		return nil, errs.New(errs.BadInput, "the repository at %s has no commit yet", g.dir).WithHint("commit and push the sources first")
	}
	if p.Branch, err = g.out(ctx, "symbolic-ref", "--quiet", "--short", "HEAD"); err != nil {
		return nil, errs.New(errs.BadInput, "HEAD is detached at %s", short(p.Commit)).WithHint("check out a branch that tracks an upstream, e.g. git switch main")
	}
	if p.Upstream, err = g.out(ctx, "rev-parse", "--abbrev-ref", "--symbolic-full-name", "@{upstream}"); err != nil {
		return nil, errs.New(errs.BadInput, "branch %q has no upstream", p.Branch).
			WithHint("push it with git push -u origin %s", shellQuote(p.Branch)).WithEvidence("branch", p.Branch)
	}
	if ok, err := g.ok(ctx, "merge-base", "--is-ancestor", "HEAD", "@{upstream}"); err != nil {
		return nil, err
	} else if !ok {
		return nil, errs.New(errs.BadInput, "commit %s on %q is not on its upstream %s", short(p.Commit), p.Branch, p.Upstream).
			WithHint("push it (git push), then run again: the model can only read what the upstream has").WithEvidence("commit", p.Commit)
	}
	remote, err := g.out(ctx, "config", "--get", "branch."+p.Branch+".remote")
	if err != nil || remote == "." {
		return nil, errs.New(errs.BadInput, "branch %q tracks a local branch, not a remote", p.Branch).WithHint("set a remote upstream with git push -u origin %s", shellQuote(p.Branch))
	}
	u, err := g.out(ctx, "remote", "get-url", remote)
	if err != nil || u == "" {
		return nil, errs.New(errs.BadInput, "remote %q has no URL", remote).WithHint("git remote set-url %s <url>", remote)
	}
	p.RepoURL = StripCredentials(u)
	p.CheckedAt = time.Now().UTC()
	return p, nil
}

// cleanSources checks that root is inside a git work tree and that every
// path is tracked and has no uncommitted or untracked changes, and returns
// a git runner at the work tree's top level with the paths relative to it
// (forward slashes). With pushed the hints say to push too (the model
// reads the upstream). Errors: BadInput envelopes naming the path (and its
// changed files) and the command that fixes it; a missing git.
func cleanSources(ctx context.Context, root string, paths []string, pushed bool) (gitRunner, []string, error) {
	push, reads := " and push", "push, and run again: the model reads the pushed commit"
	if !pushed {
		push, reads = "", "and run again: only committed files at HEAD are sent"
	}
	if len(paths) == 0 {
		return gitRunner{}, nil, errs.New(errs.BadInput, "no source path given").WithHint("pass --source-path P for each file or directory the prompt is about")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return gitRunner{}, nil, errs.Wrap(err, errs.BadInput, "resolve repository root %q: %v", root, err)
	}
	g := gitRunner{dir: abs}
	top, err := g.out(ctx, "rev-parse", "--show-toplevel")
	if err != nil {
		if errs.CodeOf(err) != "" {
			return gitRunner{}, nil, err
		}
		return gitRunner{}, nil, errs.New(errs.BadInput, "%s is not inside a git work tree", abs).WithHint("pass --repo-root with the directory of a git checkout")
	}
	g.dir = top
	var rels []string
	for _, raw := range paths {
		rel, err := repoRelative(top, abs, raw)
		if err != nil {
			return gitRunner{}, nil, err
		}
		if _, err := g.out(ctx, "ls-files", "--error-unmatch", "--", rel); err != nil {
			return gitRunner{}, nil, errs.New(errs.BadInput, "source path %q is not tracked by git", rel).
				WithHint("commit it (git add %s && git commit)%s, or fix the path", shellQuote(rel), push).WithEvidence("path", rel)
		}
		st, err := g.out(ctx, "status", "--porcelain=v1", "--untracked-files=all", "--", rel)
		if err != nil {
			return gitRunner{}, nil, err
		}
		if st != "" {
			return gitRunner{}, nil, errs.New(errs.BadInput, "source path %q has uncommitted changes (%s)", rel, changedFiles(st)).
				WithHint("commit or stash the changes under %s, %s", rel, reads).
				WithEvidence("path", rel).WithEvidence("changed", changedFiles(st))
		}
		rels = append(rels, rel)
	}
	return g, rels, nil
}

// changedFiles lists the entries of git's porcelain status (each as "M
// a.go", "?? b.txt"), at most ten and how many more.
func changedFiles(porcelain string) string {
	lines := strings.Split(porcelain, "\n")
	const most = 10
	var out []string
	for i, l := range lines {
		if i == most {
			out = append(out, fmt.Sprintf("and %d more", len(lines)-most))
			break
		}
		out = append(out, strings.TrimSpace(l))
	}
	return strings.Join(out, ", ")
}

// WriteSourceProvenance writes p as dir/.source-provenance.json atomically
// and returns the path. Failures are ArtifactSaveFailed envelopes.
func WriteSourceProvenance(dir string, p *SourceProvenance) (string, error) {
	b, err := json.MarshalIndent(p, "", "  ")
	if err != nil {
		return "", errs.Wrap(err, errs.Internal, "encode source provenance: %v", err)
	}
	path := filepath.Join(dir, SourceProvenanceFile)
	if err := artifact.WriteFileAtomic(path, append(b, '\n'), 0o600); err != nil {
		return "", err
	}
	return path, nil
}

var scpLike = regexp.MustCompile(`^([^/@:]+(?::[^/@]*)?)@([^/:]+):(.*)$`)

// StripCredentials removes user info (tokens included), query and fragment
// from a remote URL: https://user:token@host/x.git becomes
// https://host/x.git. For scp-like remotes (user@host:path) only the
// conventional "git@" user is kept. Local paths are returned as they are.
func StripCredentials(remote string) string {
	remote = strings.TrimSpace(remote)
	if strings.Contains(remote, "://") {
		u, err := url.Parse(remote)
		if err != nil {
			// Unparsable: cut everything between the scheme and the last '@'
			// of the authority, which is where credentials live.
			scheme, rest, _ := strings.Cut(remote, "://")
			auth, path, _ := strings.Cut(rest, "/")
			if i := strings.LastIndex(auth, "@"); i >= 0 {
				auth = auth[i+1:]
			}
			return scheme + "://" + auth + "/" + strings.SplitN(path, "?", 2)[0]
		}
		u.User, u.RawQuery, u.Fragment, u.RawFragment, u.ForceQuery = nil, "", "", "", false
		return u.String()
	}
	if m := scpLike.FindStringSubmatch(remote); m != nil {
		if m[1] == "git" {
			return remote
		}
		return m[2] + ":" + m[3]
	}
	return remote
}

// repoRelative turns a source path (relative to the root given, or
// absolute) into a clean path relative to the repository's top level.
func repoRelative(top, root, raw string) (string, error) {
	p := raw
	if !filepath.IsAbs(p) {
		p = filepath.Join(root, p)
	}
	p = filepath.Clean(p)
	// Compare against the top level with symlinks resolved, as git reports it.
	if resolved, err := filepath.EvalSymlinks(p); err == nil {
		p = resolved
	} else if dir, derr := filepath.EvalSymlinks(filepath.Dir(p)); derr == nil {
		p = filepath.Join(dir, filepath.Base(p))
	}
	rel, err := filepath.Rel(top, p)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", errs.New(errs.BadInput, "source path %q is outside the repository %s", raw, top).WithHint("give paths inside --repo-root")
	}
	return filepath.ToSlash(rel), nil
}

func short(commit string) string {
	if len(commit) > 12 {
		return commit[:12]
	}
	return commit
}

func shellQuote(s string) string {
	if regexp.MustCompile(`^[A-Za-z0-9._/@:+-]+$`).MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// gitRunner runs git in one directory, never prompting for credentials.
type gitRunner struct{ dir string }

func (g gitRunner) run(ctx context.Context, args ...string) (string, int, error) {
	cmd := exec.CommandContext(ctx, "git", append([]string{"-C", g.dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_TERMINAL_PROMPT=0", "GIT_OPTIONAL_LOCKS=0", "GIT_LITERAL_PATHSPECS=1", "LC_ALL=C")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return strings.TrimRight(stdout.String(), "\n"), 0, nil
	case errors.As(err, &exit):
		return strings.TrimRight(stdout.String(), "\n"), exit.ExitCode(), nil
	case errors.Is(err, exec.ErrNotFound):
		return "", -1, errs.Wrap(err, errs.BadInput, "git is not installed or not on PATH").WithHint("%s to use --repo-root", platform.GitInstall(platform.GOOS))
	case ctx.Err() != nil:
		return "", -1, ctx.Err()
	}
	return "", -1, fmt.Errorf("run git %s: %w", args[0], err)
}

// out returns git's output, or an error when git exits non-zero.
func (g gitRunner) out(ctx context.Context, args ...string) (string, error) {
	s, code, err := g.run(ctx, args...)
	if err != nil {
		return "", err
	}
	if code != 0 {
		return "", fmt.Errorf("git %s exited %d", args[0], code)
	}
	return s, nil
}

// ok reports whether git exits 0 (true) or 1 (false); other codes are errors.
func (g gitRunner) ok(ctx context.Context, args ...string) (bool, error) {
	_, code, err := g.run(ctx, args...)
	switch {
	case err != nil:
		return false, err
	case code == 0:
		return true, nil
	case code == 1:
		return false, nil
	}
	return false, fmt.Errorf("git %s exited %d", args[0], code)
}
