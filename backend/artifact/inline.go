package artifact

import (
	"archive/zip"
	"io"
	"path"
	"regexp"
	"strings"

	"github.com/ferrydesk/ferry/backend/errs"
	"golang.org/x/text/cases"
	"golang.org/x/text/unicode/norm"
)

// InlineFile is a file taken from a fenced code block of the answer.
type InlineFile struct {
	Path    string `json:"path"`
	Lang    string `json:"lang,omitempty"`
	Content string `json:"-"`
}

// InlineResult is what the fallback found in an answer.
type InlineResult struct {
	Files    []InlineFile `json:"files"`
	Unnamed  int          `json:"unnamed"`            // blocks without a file name, skipped
	Replaced []string     `json:"replaced,omitempty"` // names given twice: the later block won
	Rejected []Rejected   `json:"rejected,omitempty"` // names refused as unsafe
}

var (
	attrRe  = regexp.MustCompile(`(?:^|\s)(?:path|file|filename)=(?:"([^"]*)"|'([^']*)'|(\S+))`)
	labelRe = regexp.MustCompile("^(?:#{1,6}\\s+|[-*+]\\s+|\\d+[.)]\\s+)?(?:[*_]{1,2})?(?:(?i:file|filename|path)\\s*:\\s*)?(?:[*_]{1,2})?`?([^`\\s*_][^`\\s]*?)`?(?:[*_]{1,2})?:?$")
)

// InlineFiles collects the named files of an answer's fenced code blocks,
// for the --allow-inline fallback when no zip exists. The rule:
//
//   - A block opens with a line of three or more backticks or tildes
//     (indented at most three spaces) and closes with a line of the same
//     character, at least as long. An unclosed block runs to the end.
//   - Its file name comes from a path=, file= or filename= attribute of the
//     info string (```go path=cmd/app/main.go), or else from the nearest
//     non-blank line before the fence when that line is only a path:
//     optionally in backticks or bold, after a heading or list marker or a
//     "File:" label, with an optional trailing colon. A label path must
//     hold a "/" or a "." so that prose is not taken for a name.
//   - Names must be relative and safe (UnsafeName); refused names are
//     listed. A name given twice keeps the later block (the answer revised
//     it) and is listed in Replaced; names that differ only in case or
//     Unicode normalisation count as the same. Blocks without a name are
//     counted.
//
// No named file at all is an ArtifactNotFound envelope.
func InlineFiles(answer string) (*InlineResult, error) {
	lines := strings.Split(strings.ReplaceAll(answer, "\r\n", "\n"), "\n")
	res := &InlineResult{Files: []InlineFile{}}
	index := map[string]int{}
	fold := cases.Fold()
	for i := 0; i < len(lines); i++ {
		fence, info, ok := openFence(lines[i])
		if !ok {
			continue
		}
		var body []string
		j := i + 1
		for ; j < len(lines); j++ {
			if closesFence(lines[j], fence) {
				break
			}
			body = append(body, lines[j])
		}
		name := nameFromInfo(info)
		if name == "" {
			name = nameFromLabel(lines[:i])
		}
		i = j
		if name == "" {
			res.Unnamed++
			continue
		}
		if why := UnsafeName(name); why != "" || strings.HasSuffix(name, "/") {
			if why == "" {
				why = "the name is a directory"
			}
			res.Rejected = append(res.Rejected, Rejected{Raw: name, Why: why})
			continue
		}
		lang := ""
		if f := strings.Fields(info); len(f) > 0 && !strings.Contains(f[0], "=") {
			lang = f[0]
		}
		content := strings.Join(body, "\n")
		if len(body) > 0 {
			content += "\n"
		}
		f := InlineFile{Path: path.Clean(name), Lang: lang, Content: content}
		// Names that collide once extracted (case, normalisation) are the
		// same file: the later block replaces the earlier one.
		key := fold.String(norm.NFC.String(f.Path))
		if k, dup := index[key]; dup {
			res.Files[k] = f
			res.Replaced = append(res.Replaced, name)
			continue
		}
		index[key] = len(res.Files)
		res.Files = append(res.Files, f)
	}
	if len(res.Files) == 0 {
		return res, errs.New(errs.ArtifactNotFound, "the answer names no sandbox zip and none of its %d code blocks has a file name", res.Unnamed).
			WithHint("ask for the zip again, or for code blocks that start with ```lang path=<file>")
	}
	return res, nil
}

func openFence(line string) (fence, info string, ok bool) {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 || len(t) < 3 || (t[0] != '`' && t[0] != '~') {
		return "", "", false
	}
	n := 0
	for n < len(t) && t[n] == t[0] {
		n++
	}
	if n < 3 {
		return "", "", false
	}
	info = strings.TrimSpace(t[n:])
	if t[0] == '`' && strings.Contains(info, "`") {
		return "", "", false // an inline code span, not a fence
	}
	return t[:n], info, true
}

func closesFence(line, fence string) bool {
	t := strings.TrimLeft(line, " ")
	if len(line)-len(t) > 3 {
		return false
	}
	t = strings.TrimRight(t, " \t")
	return len(t) >= len(fence) && strings.Trim(t, fence[:1]) == ""
}

func nameFromInfo(info string) string {
	m := attrRe.FindStringSubmatch(info)
	if m == nil {
		return ""
	}
	return strings.TrimSpace(m[1] + m[2] + m[3])
}

func nameFromLabel(before []string) string {
	for k := len(before) - 1; k >= 0; k-- {
		l := strings.TrimSpace(before[k])
		if l == "" {
			continue
		}
		m := labelRe.FindStringSubmatch(l)
		if m == nil || !strings.ContainsAny(m[1], "/.") || strings.HasSuffix(m[1], ".") {
			return ""
		}
		return strings.TrimPrefix(m[1], "./")
	}
	return ""
}

// WriteInlineZip writes files as a zip to w, in order, deflated, with mode
// 0644 and no timestamps beyond the zip epoch, so that the same files give
// the same bytes.
func WriteInlineZip(w io.Writer, files []InlineFile) error {
	zw := zip.NewWriter(w)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Path, Method: zip.Deflate}
		h.SetMode(0o644)
		fw, err := zw.CreateHeader(h)
		if err != nil {
			return errs.Wrap(err, errs.ArtifactSaveFailed, "add %s to the inline zip: %v", f.Path, err)
		}
		if _, err := io.WriteString(fw, f.Content); err != nil {
			return errs.Wrap(err, errs.ArtifactSaveFailed, "write %s to the inline zip: %v", f.Path, err)
		}
	}
	if err := zw.Close(); err != nil {
		return errs.Wrap(err, errs.ArtifactSaveFailed, "finish the inline zip: %v", err)
	}
	return nil
}
