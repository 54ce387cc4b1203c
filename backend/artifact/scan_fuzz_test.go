package artifact

import (
	"strings"
	"testing"
)

// FuzzScanText: the scan never panics, and every path it returns passes the
// same validation the mint applies.
func FuzzScanText(f *testing.F) {
	f.Add("[a](sandbox:/mnt/data/a.zip)\n/mnt/data/b.zip\n'/mnt/data/c.zip'")
	f.Add("/mnt/data/../x.zip /mnt/data/%2e.zip [x](sandbox:/mnt/data/a b.zip)")
	f.Fuzz(func(t *testing.T, text string) {
		r := ScanText(text, "m")
		for _, z := range r.Zips {
			if err := ValidateSandboxPath(z.Path); err != nil {
				t.Fatalf("returned %q, which fails validation: %v", z.Path, err)
			}
			if strings.Contains(z.Path, "..") && strings.Contains(z.Path, "/../") {
				t.Fatalf("returned a dot-dot path %q", z.Path)
			}
		}
	})
}

// FuzzInlineFiles: the fallback never panics and never returns a name the
// verifier would refuse.
func FuzzInlineFiles(f *testing.F) {
	f.Add("```go path=a/b.go\nx\n```\n`c.txt`\n~~~\ny\n~~~")
	f.Add("**`../x`**\n```\nz\n```")
	f.Fuzz(func(t *testing.T, answer string) {
		res, _ := InlineFiles(answer)
		for _, file := range res.Files {
			if why := UnsafeName(file.Path); why != "" {
				t.Fatalf("returned unsafe name %q: %s", file.Path, why)
			}
		}
	})
}
