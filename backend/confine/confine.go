// Package confine holds the one rule for every path an agent names: it
// must lie within the roots the user allowed, where it really leads once
// its symbolic links are resolved.
package confine

import (
	"path/filepath"
	"strings"
)

// Within reports whether path is one of roots or lies inside one once its
// symbolic links are resolved: where it really leads is what counts, so a
// link inside a root cannot lead out of it, and a path through a link to
// a root is inside. Of a path not made yet, the longest part that exists
// is resolved (a folder to be created is judged by where it would be).
// Each root counts as written and resolved. A relative path lies in no
// root. This is the one rule for every path an agent names: the files its
// jobs attach, and the folder a face copies its zips into.
func Within(path string, roots []string) bool {
	if !filepath.IsAbs(path) {
		return false
	}
	return inRoots(resolvedPath(filepath.Clean(path)), roots)
}

func inRoots(p string, roots []string) bool {
	for _, r := range roots {
		if !filepath.IsAbs(r) {
			continue
		}
		r = filepath.Clean(r)
		if inside(p, r) || inside(p, resolvedPath(r)) {
			return true
		}
	}
	return false
}

// inside reports whether p is root or lies under it.
func inside(p, root string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// resolvedPath is p with the symbolic links of its longest existing part
// resolved.
func resolvedPath(p string) string {
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}
