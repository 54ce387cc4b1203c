package attach

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/ferrydesk/ferry/backend/errs"
)

// Bundle returns prompt followed by the text files, pasted as one bundle:
// for each file a heading with its path (relative to dir when under it), then
// its lines numbered inside a fence longer than any backtick run in it.
// maxBytes is the site's prompt limit (0: none). Errors: errs.BadInput for
// a file that cannot be read or is not text (NUL bytes or invalid UTF-8);
// errs.PromptTooLarge when the bundled prompt would be over maxBytes,
// with the size it would have had.
func Bundle(prompt, dir string, paths []string, maxBytes int) (string, error) {
	var b strings.Builder
	b.WriteString(strings.TrimRight(prompt, "\n"))
	b.WriteString("\n\n")
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			return "", errs.Wrap(err, errs.BadInput, "read the file to inline %s: %v", p, err).WithEvidence("file", p)
		}
		if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
			return "", errs.New(errs.BadInput, "%s is not a text file and cannot be inlined", p).WithEvidence("file", p).
				WithHint("attach it as a file instead (drop --inline-files)")
		}
		name := p
		if rel, err := filepath.Rel(dir, p); err == nil && !strings.HasPrefix(rel, "..") {
			name = filepath.ToSlash(rel)
		}
		writeFile(&b, name, string(data))
	}
	out := strings.TrimRight(b.String(), "\n")
	if maxBytes > 0 && len(out) > maxBytes {
		return "", errs.New(errs.PromptTooLarge, "the prompt with the inlined files would be %s (%d bytes), over the site's limit of %s", Size(int64(len(out))), len(out), Size(int64(maxBytes))).
			WithEvidence("bytes", fmt.Sprint(len(out))).WithEvidence("max_bytes", fmt.Sprint(maxBytes)).
			WithHint("attach the files instead of inlining them (drop --inline-files), or name fewer files")
	}
	return out, nil
}

func writeFile(b *strings.Builder, name, text string) {
	fence := "```"
	for strings.Contains(text, fence) {
		fence += "`"
	}
	text = strings.TrimSuffix(text, "\n")
	lines := strings.Split(text, "\n")
	width := len(fmt.Sprint(len(lines)))
	fmt.Fprintf(b, "### %s\n%s\n", name, fence)
	for i, l := range lines {
		fmt.Fprintf(b, "%*d  %s\n", width, i+1, l)
	}
	b.WriteString(fence + "\n\n")
}
