package attach

import (
	"fmt"
	"path/filepath"
	"strings"
)

// rename gives every file whose base name another file shares a distinct
// visible name made of its last directories and its base name joined by
// "__" (a/util.go → a__util.go, b/util.go → b__util.go), with as many
// directories as it takes; a clash left over gets a number. Sites have been
// seen to merge two files of the same name in one message, so no two names
// are ever equal (compared case-insensitively, as file libraries do).
func rename(files []File) {
	count := map[string]int{}
	for _, f := range files {
		count[strings.ToLower(f.Name)]++
	}
	taken := map[string]bool{}
	for _, f := range files {
		if count[strings.ToLower(f.Name)] == 1 {
			taken[strings.ToLower(f.Name)] = true
		}
	}
	for i := range files {
		base := files[i].Name
		if count[strings.ToLower(base)] < 2 {
			continue
		}
		dirs := strings.Split(filepath.ToSlash(filepath.Dir(files[i].Path)), "/")
		name := base
		for d := len(dirs) - 1; d >= 0; d-- {
			if dirs[d] == "" {
				continue
			}
			name = dirs[d] + "__" + name
			if !taken[strings.ToLower(name)] && !sharedSuffix(files, i, name) {
				break
			}
		}
		from := suffixName(files[i].Path, strings.Count(name, "__"), "/")
		for n := 2; taken[strings.ToLower(name)]; n++ {
			name = fmt.Sprintf("%d__%s", n, base)
		}
		taken[strings.ToLower(name)] = true
		files[i].Name, files[i].RenamedFrom = name, from
	}
}

// sharedSuffix reports whether another file's path would give the same
// name with as many directories as name has.
func sharedSuffix(files []File, i int, name string) bool {
	parts := strings.Count(name, "__")
	for j, g := range files {
		if j == i {
			continue
		}
		if strings.EqualFold(suffixName(g.Path, parts, "__"), name) {
			return true
		}
	}
	return false
}

// suffixName is the last dirs directories of p and its base name, joined
// by sep.
func suffixName(p string, dirs int, sep string) string {
	segs := strings.Split(filepath.ToSlash(p), "/")
	if len(segs) > dirs+1 {
		segs = segs[len(segs)-dirs-1:]
	}
	return strings.Join(segs, sep)
}

// RenameNote is the line appended to the prompt when files were renamed,
// so the model (and the reader) knows which name is which file; "" when
// none was.
func RenameNote(files []File) string {
	var parts []string
	for _, f := range files {
		if f.Renamed() {
			parts = append(parts, f.Name+" is "+f.RenamedFrom)
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "Attached files renamed because their names clash: " + strings.Join(parts, "; ") + "."
}

// WithRenameNote returns prompt with RenameNote appended on its own line
// (prompt unchanged when no file was renamed).
func WithRenameNote(prompt string, files []File) string {
	note := RenameNote(files)
	if note == "" {
		return prompt
	}
	return strings.TrimRight(prompt, "\n") + "\n\n" + note
}
