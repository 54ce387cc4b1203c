package artifact

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/errs"
)

func TestScanConversationFindsEveryZipOnTheCurrentBranch(t *testing.T) {
	data, err := os.ReadFile("testdata/conversation.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConversation(data)
	if err != nil {
		t.Fatal(err)
	}
	r, err := ScanConversation(c)
	if err != nil {
		t.Fatal(err)
	}
	want := []Found{
		{Path: "/mnt/data/project.zip", MessageIDs: []string{"m-final", "m-exec"}, Sources: []Source{SourceExecution, SourceFinalExpression, SourceLink}},
		{Path: "/mnt/data/docs.zip", MessageIDs: []string{"m-final", "m-exec2"}, Sources: []Source{SourceExecution, SourceFinalExpression, SourceLink}},
		{Path: "/mnt/data/tests.zip", MessageIDs: []string{"m-final", "m-exec2"}, Sources: []Source{SourceFinalExpression, SourcePlain}},
		{Path: "/mnt/data/my project.zip", MessageIDs: []string{"m-final"}, Sources: []Source{SourceLink}},
	}
	if !reflect.DeepEqual(r.Zips, want) {
		t.Errorf("zips =\n%+v\nwant\n%+v", r.Zips, want)
	}
	var rejected []string
	for _, x := range r.Rejected {
		rejected = append(rejected, x.Raw)
	}
	for _, bad := range []string{"/mnt/data/../etc/shadow.zip", "/mnt/data/%2e%2e/x.zip", `/mnt/data/a"b.zip`, "/mnt/data/x"} {
		found := false
		for _, x := range rejected {
			found = found || x == bad
		}
		if !found {
			t.Errorf("hostile path %q was not reported as rejected (rejected: %q)", bad, rejected)
		}
	}
	for _, z := range r.Zips {
		for _, never := range []string{"requested", "abandoned", "from-code-only"} {
			if strings.Contains(z.Path, never) {
				t.Errorf("%s comes from a user prompt, another branch or code, and must not be found", z.Path)
			}
		}
	}
}

func TestConversationBranchRefusesBrokenMappings(t *testing.T) {
	cases := []struct {
		name string
		json string
	}{
		{"a conversation without current_node", `{"mapping":{}}`},
		{"a current_node missing from the mapping", `{"current_node":"x","mapping":{}}`},
		{"a parent chain that loops", `{"current_node":"a","mapping":{"a":{"id":"a","parent":"b"},"b":{"id":"b","parent":"a"}}}`},
	}
	for _, c := range cases {
		t.Run(c.name+" is an artifact_not_found error", func(t *testing.T) {
			conv, err := ParseConversation([]byte(c.json))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := ScanConversation(conv); !errs.Has(err, errs.ArtifactNotFound) {
				t.Fatalf("err = %v", err)
			}
		})
	}
	if _, err := ParseConversation([]byte("{not json")); !errs.Has(err, errs.ArtifactNotFound) {
		t.Errorf("malformed JSON: err = %v", err)
	}
}

func TestScanTextFindsZipsInAStreamedAnswer(t *testing.T) {
	cases := []struct {
		name string
		text string
		want []string
	}{
		{"a plain path on its own line", "Here it is:\n/mnt/data/app.zip\n", []string{"/mnt/data/app.zip"}},
		{"a path ending a sentence", "Saved to /mnt/data/app.zip.", []string{"/mnt/data/app.zip"}},
		{"a path in backticks", "Saved to `/mnt/data/app.zip`.", []string{"/mnt/data/app.zip"}},
		{"a link and the same plain path", "[app](sandbox:/mnt/data/app.zip)\n/mnt/data/app.zip", []string{"/mnt/data/app.zip"}},
		{"several zips in order", "/mnt/data/b.zip then /mnt/data/a.zip then /mnt/data/b.zip", []string{"/mnt/data/b.zip", "/mnt/data/a.zip"}},
		{"a zip in a subdirectory", "/mnt/data/out/app.zip", []string{"/mnt/data/out/app.zip"}},
		{"an upper-case extension", "/mnt/data/APP.ZIP", []string{"/mnt/data/APP.ZIP"}},
		{"a non-zip file", "/mnt/data/app.tar.gz and /mnt/data/notes.md", nil},
		{"a dot-dot escape", "/mnt/data/../../etc/x.zip", nil},
		{"a percent-encoded escape", "[x](sandbox:/mnt/data/%2e%2e/x.zip)", nil},
		{"a hidden file name", "/mnt/data/.zip and /mnt/data/.secret.zip", nil},
		{"a path outside the sandbox", "[x](sandbox:/etc/x.zip)", nil},
		{"a doubled slash", "/mnt/data//x.zip", nil},
		{"a path with a tab in a link", "[x](sandbox:/mnt/data/a\tb.zip)", nil},
	}
	for _, c := range cases {
		t.Run(c.name+" gives "+strings.Join(c.want, ","), func(t *testing.T) {
			r := ScanText(c.text, "m1")
			var got []string
			for _, z := range r.Zips {
				got = append(got, z.Path)
				if !reflect.DeepEqual(z.MessageIDs, []string{"m1"}) {
					t.Errorf("%s: message ids %v", z.Path, z.MessageIDs)
				}
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("zips = %q, want %q (rejected %+v)", got, c.want, r.Rejected)
			}
		})
	}
}

func TestValidateSandboxPath(t *testing.T) {
	for _, ok := range []string{"/mnt/data/x.zip", "/mnt/data/a b.zip", "/mnt/data/d/x.zip"} {
		if err := ValidateSandboxPath(ok); err != nil {
			t.Errorf("%q refused: %v", ok, err)
		}
	}
	for _, bad := range []string{"/mnt/data/x.txt", "/mnt/data/../x.zip", "/tmp/x.zip", "/mnt/data/x%20.zip", "mnt/data/x.zip", "/mnt/data/a\nb.zip"} {
		if err := ValidateSandboxPath(bad); !errs.Has(err, errs.BadInput) {
			t.Errorf("%q accepted or wrong error: %v", bad, err)
		}
	}
}
