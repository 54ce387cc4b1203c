package attach

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Expand turns what the user named into absolute file paths, sorted and
// without repeats: a file stays itself, a directory gives every regular
// file under it (hidden directories such as .git are skipped), a glob
// (`*`, `?`, `[`) gives its matches, and an entry "!PATTERN" drops every
// file whose base name or path relative to the directory it came from
// matches PATTERN (filepath.Match; a PATTERN naming a directory drops what
// is under it). Relative entries are taken from dir. Errors: errs.BadInput
// for an entry that names nothing, a malformed pattern, or a result with no
// file left.
func Expand(dir string, entries []string) ([]string, error) {
	var include, exclude []string
	for _, e := range entries {
		if strings.HasPrefix(e, "!") {
			pat := strings.TrimPrefix(e, "!")
			if _, err := filepath.Match(pat, ""); err != nil || pat == "" {
				return nil, errs.New(errs.BadInput, "exclusion %q is not a valid pattern", e).
					WithHint("write !PATTERN with * and ? as in shell globs, e.g. !*.log")
			}
			exclude = append(exclude, filepath.ToSlash(filepath.Clean(pat)))
			continue
		}
		include = append(include, e)
	}
	seen := map[string]bool{}
	var out []string
	add := func(root, p string) {
		rel, err := filepath.Rel(root, p)
		if err != nil {
			rel = filepath.Base(p)
		}
		if excluded(filepath.ToSlash(rel), exclude) || seen[p] {
			return
		}
		seen[p] = true
		out = append(out, p)
	}
	for _, e := range include {
		p := e
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		p = filepath.Clean(p)
		if strings.ContainsAny(e, "*?[") {
			matches, err := filepath.Glob(p)
			if err != nil {
				return nil, errs.New(errs.BadInput, "--file %q is not a valid pattern", e)
			}
			if len(matches) == 0 {
				return nil, errs.New(errs.BadInput, "--file %q matches no file", e).WithEvidence("pattern", e)
			}
			root := globRoot(p)
			for _, m := range matches {
				if err := walk(root, m, add); err != nil {
					return nil, err
				}
			}
			continue
		}
		if _, err := os.Stat(p); err != nil {
			return nil, errs.Wrap(err, errs.BadInput, "--file %s: %v", e, err).WithEvidence("file", e)
		}
		if err := walk(filepath.Dir(p), p, add); err != nil {
			return nil, err
		}
	}
	if len(out) == 0 {
		return nil, errs.New(errs.BadInput, "the files named leave nothing to attach").
			WithHint("check the --file entries and the !PATTERN exclusions")
	}
	sort.Strings(out)
	return out, nil
}

// walk adds p, or every regular file under p when it is a directory (its
// relative paths taken from root).
func walk(root, p string, add func(root, p string)) error {
	fi, err := os.Stat(p)
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "read %s: %v", p, err)
	}
	if !fi.IsDir() {
		add(root, p)
		return nil
	}
	err = filepath.WalkDir(p, func(q string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if q != p && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			add(p, q)
		}
		return nil
	})
	if err != nil {
		return errs.Wrap(err, errs.BadInput, "read the directory %s: %v", p, err)
	}
	return nil
}

// excluded reports whether rel (slash-separated) or its base name, or one
// of its directories, matches a pattern.
func excluded(rel string, pats []string) bool {
	segs := strings.Split(rel, "/")
	for _, pat := range pats {
		if ok, _ := filepath.Match(pat, rel); ok {
			return true
		}
		if ok, _ := filepath.Match(pat, segs[len(segs)-1]); ok {
			return true
		}
		for i := 1; i < len(segs); i++ {
			if ok, _ := filepath.Match(pat, strings.Join(segs[:i], "/")); ok {
				return true
			}
			if ok, _ := filepath.Match(pat, segs[i-1]); ok {
				return true
			}
		}
	}
	return false
}

// globRoot is the directory part of a pattern before its first wildcard.
func globRoot(p string) string {
	i := strings.IndexAny(p, "*?[")
	return filepath.Dir(p[:i+1])
}
