package artifact

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestInlineFilesFollowsTheNamingRule(t *testing.T) {
	answer := strings.Join([]string{
		"Here is the project.",
		"",
		"```go path=cmd/app/main.go",
		"package main",
		"",
		"func main() {}",
		"```",
		"",
		"**`internal/util.go`**",
		"```go",
		"package internal",
		"```",
		"",
		"File: README.md",
		"",
		"~~~markdown",
		"# App",
		"```not a fence end",
		"~~~",
		"### `scripts/run.sh`:",
		"```sh",
		"echo hi",
		"```",
		"Some prose explaining the next block.",
		"```python",
		"print('unnamed')",
		"```",
		"```text file=\"../../etc/passwd\"",
		"root",
		"```",
		"```go filename='cmd/app/main.go'",
		"package main // revised",
		"```",
	}, "\n")
	res, err := InlineFiles(answer)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"cmd/app/main.go":  "package main // revised\n",
		"internal/util.go": "package internal\n",
		"README.md":        "# App\n```not a fence end\n",
		"scripts/run.sh":   "echo hi\n",
	}
	var order []string
	for _, f := range res.Files {
		order = append(order, f.Path)
		if want[f.Path] != f.Content {
			t.Errorf("%s = %q, want %q", f.Path, f.Content, want[f.Path])
		}
	}
	if strings.Join(order, ",") != "cmd/app/main.go,internal/util.go,README.md,scripts/run.sh" {
		t.Errorf("files = %v", order)
	}
	if res.Unnamed != 1 || len(res.Replaced) != 1 || len(res.Rejected) != 1 || res.Rejected[0].Raw != "../../etc/passwd" {
		t.Errorf("unnamed=%d replaced=%v rejected=%+v", res.Unnamed, res.Replaced, res.Rejected)
	}
	if res.Files[0].Lang != "go" {
		t.Errorf("lang = %q", res.Files[0].Lang)
	}
}

func TestInlineFilesTreatsCaseVariantsAsOneFile(t *testing.T) {
	res, err := InlineFiles("```go path=App/Main.go\nv1\n```\n```go path=app/main.go\nv2\n```")
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Files) != 1 || res.Files[0].Content != "v2\n" || len(res.Replaced) != 1 {
		t.Fatalf("files = %+v", res.Files)
	}
	var b bytes.Buffer
	WriteInlineZip(&b, res.Files)
	if _, err := Verify(context.Background(), bytes.NewReader(b.Bytes()), int64(b.Len())); err != nil {
		t.Errorf("the inline zip is refused: %v", err)
	}
}

func TestInlineFilesWithoutNamesIsArtifactNotFound(t *testing.T) {
	for name, answer := range map[string]string{
		"no code at all":           "I could not build it.",
		"only unnamed blocks":      "```go\npackage main\n```",
		"a prose line before":      "Run this:\n```sh\nmake\n```",
		"only an unsafe name":      "```sh path=/etc/rc.local\nx\n```",
		"an inline span, no fence": "use ```go path=a.go``` inline",
	} {
		t.Run(name+" gives artifact_not_found", func(t *testing.T) {
			if _, err := InlineFiles(answer); !errs.Has(err, errs.ArtifactNotFound) {
				t.Fatalf("err = %v", err)
			}
		})
	}
}

func TestInlineZipPassesTheVerifierAndIsDeterministic(t *testing.T) {
	files := []InlineFile{{Path: "a/main.go", Content: "package main\n"}, {Path: "README.md", Content: "# x\n"}}
	var one, two bytes.Buffer
	if err := WriteInlineZip(&one, files); err != nil {
		t.Fatal(err)
	}
	WriteInlineZip(&two, files)
	if !bytes.Equal(one.Bytes(), two.Bytes()) {
		t.Error("the same files gave different zips")
	}
	v, err := Verify(context.Background(), bytes.NewReader(one.Bytes()), int64(one.Len()))
	if err != nil || v.Files != 2 || v.Entries[0].Name != "a/main.go" {
		t.Fatalf("verify: %v %+v", err, v)
	}
}
