package prompt

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// SourceTree is a set of source paths that are tracked and clean at a
// repository's HEAD: what `--source-as zip` sends.
type SourceTree struct {
	// Top is the work tree's top level.
	Top    string `json:"top"`
	Commit string `json:"commit"`
	// Paths are relative to Top, with forward slashes.
	Paths []string `json:"paths"`
}

// CleanSources checks that root is inside a git work tree, that every path
// is tracked with no uncommitted or untracked change, and that HEAD has a
// commit; unlike CheckSources it needs no branch and no upstream, as the
// files themselves are sent. Errors: BadInput envelopes naming the path
// and its changed files with the command that fixes it; a missing git.
func CleanSources(ctx context.Context, root string, paths []string) (*SourceTree, error) {
	g, rels, err := cleanSources(ctx, root, paths, false)
	if err != nil {
		return nil, err
	}
	commit, err := g.out(ctx, "rev-parse", "--verify", "HEAD")
	if err != nil {
		return nil, errs.New(errs.BadInput, "the repository at %s has no commit yet", g.dir).WithHint("commit the sources first")
	}
	return &SourceTree{Top: g.dir, Commit: commit, Paths: rels}, nil
}

// ZipName is the name the zip of t is sent under: the repository's folder
// name and the commit's first 12 digits.
func (t *SourceTree) ZipName() string {
	base := unsafeName.ReplaceAllString(filepath.Base(t.Top), "_")
	if base == "" || base == "." || base == "_" {
		base = "sources"
	}
	return base + "-" + short(t.Commit) + ".zip"
}

var unsafeName = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// Zip writes the files of t as git holds them at the commit (git archive:
// the tracked files under t.Paths, with the repository's export
// attributes) into dir/ZipName() and returns the path. Errors: BadInput
// when git fails (the commit is gone, a path matches nothing) or is
// missing; the directory's write errors.
func (t *SourceTree) Zip(ctx context.Context, dir string) (string, error) {
	out := filepath.Join(dir, t.ZipName())
	g := gitRunner{dir: t.Top}
	args := append([]string{"archive", "--format=zip", "-o", out, t.Commit, "--"}, t.Paths...)
	_, code, err := g.run(ctx, args...)
	if err != nil {
		return "", err
	}
	if code != 0 {
		_ = os.Remove(out)
		return "", errs.New(errs.BadInput, "git archive of %s at %s failed (exit %d)", strings.Join(t.Paths, ", "), short(t.Commit), code).
			WithHint("check that the paths are in the commit: git ls-tree -r %s -- %s", short(t.Commit), strings.Join(t.Paths, " "))
	}
	return out, nil
}

// ZipSources checks the sources at paths of the repository at root as
// CleanSources does and writes their zip (see Zip) into a private
// temporary directory of its own, for one run to attach. It returns the
// zip's path and remove, which deletes the directory with the zip; remove
// is a no-op when err is not nil. Errors: CleanSources'; errs.Internal when
// no temporary directory can be made; Zip's.
func ZipSources(ctx context.Context, root string, paths []string) (path string, remove func(), err error) {
	none := func() {}
	tree, err := CleanSources(ctx, root, paths)
	if err != nil {
		return "", none, err
	}
	dir, err := os.MkdirTemp("", "ferry-sources-")
	if err != nil {
		return "", none, errs.Wrap(err, errs.Internal, "make a directory for the sources' zip: %v", err)
	}
	remove = func() { _ = os.RemoveAll(dir) }
	if path, err = tree.Zip(ctx, dir); err != nil {
		remove()
		return "", none, err
	}
	return path, remove, nil
}
