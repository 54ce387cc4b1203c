package chatgpt

import (
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/ferrydesk/ferry/backend/artifact"
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
	want := []artifact.Found{
		{Path: "/mnt/data/project.zip", MessageIDs: []string{"m-final", "m-exec"}, Sources: []artifact.Source{SourceExecution, SourceFinalExpression, artifact.SourceLink}},
		{Path: "/mnt/data/docs.zip", MessageIDs: []string{"m-final", "m-exec2"}, Sources: []artifact.Source{SourceExecution, SourceFinalExpression, artifact.SourceLink}},
		{Path: "/mnt/data/tests.zip", MessageIDs: []string{"m-final", "m-exec2"}, Sources: []artifact.Source{SourceFinalExpression, artifact.SourcePlain}},
		{Path: "/mnt/data/my project.zip", MessageIDs: []string{"m-final"}, Sources: []artifact.Source{artifact.SourceLink}},
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

func TestTheSandboxScanCarriesTheCurrentBranch(t *testing.T) {
	data, err := os.ReadFile("testdata/conversation.json")
	if err != nil {
		t.Fatal(err)
	}
	c, err := ParseConversation(data)
	if err != nil {
		t.Fatal(err)
	}
	scan, err := scanSandbox(c)
	if err != nil {
		t.Fatal(err)
	}
	var ids, roles []string
	for _, m := range scan.Branch {
		ids, roles = append(ids, m.ID), append(roles, m.Role)
	}
	if strings.Join(ids, ",") != "m-system,m-user,m-code,m-exec,m-exec2,m-final" || strings.Join(roles, ",") != "system,user,assistant,tool,tool,assistant" {
		t.Fatalf("branch ids %v roles %v, want the current branch oldest first", ids, roles)
	}
	if !strings.HasPrefix(scan.Branch[1].Text, "Build it and save /mnt/data/requested.zip") {
		t.Errorf("the user message's text is %q, want its text part", scan.Branch[1].Text)
	}
	if want, _ := ScanConversation(c); !reflect.DeepEqual(scan.ScanResult, *want) {
		t.Errorf("the scan's zips %+v differ from ScanConversation's %+v", scan.Zips, want.Zips)
	}
}
